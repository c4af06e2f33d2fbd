// TrustSuite adapter for jackson-dataformat-cbor (family cbor, wellFormed
// mode), Debian's libjackson2-dataformat-cbor with its jackson-core; built
// by Adapters/build.sh. JSON lines through jackson-core's own JSON parser.
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

public final class JacksonCborAdapter {
    private static final JsonFactory JSON = new JsonFactory();
    /** The strictest parser the library offers: duplicate keys refused. */
    private static final CBORFactory CBOR = new CBORFactory();

    static {
        CBOR.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /** Reads every token of the first item (text is decoded, so its UTF-8
     * checked) and refuses anything after it, as a caller reading one
     * document does: 2.7 has no FAIL_ON_TRAILING_TOKENS. */
    static void decode(byte[] data) throws IOException {
        try (JsonParser parser = CBOR.createParser(data)) {
            if (parser.nextToken() == null) throw new IOException("no item");
            int depth = 0;
            JsonToken token = parser.getCurrentToken();
            while (true) {
                if (token == JsonToken.START_ARRAY || token == JsonToken.START_OBJECT) depth++;
                if (token == JsonToken.END_ARRAY || token == JsonToken.END_OBJECT) depth--;
                if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) parser.getText();
                if (token == JsonToken.VALUE_EMBEDDED_OBJECT) parser.getEmbeddedObject();
                if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) parser.getNumberValue();
                if (depth == 0) break;
                token = parser.nextToken();
                if (token == null) throw new IOException("end of input inside an item");
            }
            if (parser.nextToken() != null) throw new IOException("data after the first item");
        }
    }

    static Map<String, String> answer(Map<String, Object> request) {
        Map<String, String> reply = new HashMap<>();
        if (!"cbor".equals(request.get("family"))) return unsupported("family " + request.get("family") + " is not mapped by this adapter");
        Object mode = request.getOrDefault("mode", "wellFormed");
        if (!"wellFormed".equals(mode)) return unsupported("jackson-dataformat-cbor has no " + mode + " decoding mode");
        if (Boolean.TRUE.equals(request.get("tagValidity"))) return unsupported("jackson-dataformat-cbor has no option that checks tag content (tagValidity)");
        try {
            decode(hex(String.valueOf(request.get("cborHex"))));
            reply.put("result", "valid");
        } catch (Exception | StackOverflowError e) {
            reply.put("result", "invalid");
            String text = e.getClass().getSimpleName() + ": " + e.getMessage();
            reply.put("error", text.length() > 500 ? text.substring(0, 500) : text);
        }
        return reply;
    }

    static Map<String, String> unsupported(String reason) {
        Map<String, String> reply = new HashMap<>();
        reply.put("result", "unsupported");
        reply.put("error", reason);
        return reply;
    }

    static byte[] hex(String text) {
        byte[] data = new byte[text.length() / 2];
        for (int i = 0; i < data.length; i++) data[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        return data;
    }

    /** id and family at the top level, the input's scalar fields flattened
     * beside them (the cbor family's input has only scalars). */
    static Map<String, Object> request(String line) throws IOException {
        Map<String, Object> fields = new HashMap<>();
        try (JsonParser parser = JSON.createParser(line)) {
            parser.nextToken();
            while (parser.nextToken() != null) {
                if (parser.getCurrentToken() != JsonToken.FIELD_NAME) continue;
                String name = parser.getCurrentName();
                JsonToken value = parser.nextToken();
                if (value == JsonToken.VALUE_STRING) fields.put(name, parser.getText());
                else if (value == JsonToken.VALUE_TRUE || value == JsonToken.VALUE_FALSE) fields.put(name, value == JsonToken.VALUE_TRUE);
            }
        }
        return fields;
    }

    static String line(Map<String, ?> object) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = JSON.createGenerator(out)) {
            generator.writeStartObject();
            for (Map.Entry<String, ?> entry : object.entrySet()) {
                if (entry.getValue() instanceof String[]) {
                    generator.writeArrayFieldStart(entry.getKey());
                    for (String item : (String[]) entry.getValue()) generator.writeString(item);
                    generator.writeEndArray();
                } else {
                    generator.writeStringField(entry.getKey(), String.valueOf(entry.getValue()));
                }
            }
            generator.writeEndObject();
        }
        return out.toString();
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        Map<String, Object> hello = new HashMap<>();
        hello.put("adapter", "jackson-cbor");
        hello.put("version", CBORFactory.class.getPackage().getImplementationVersion());
        hello.put("families", new String[] {"cbor"});
        out.println(line(hello));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String text; (text = in.readLine()) != null; ) {
            if (text.trim().isEmpty()) continue;
            Map<String, Object> request = request(text);
            Map<String, Object> reply = new HashMap<>(answer(request));
            reply.put("id", request.get("id"));
            out.println(line(reply));
        }
    }
}
