//! TrustSuite adapter for serde_cbor (family cbor, wellFormed mode), Debian's
//! librust-serde-cbor-dev: one JSON request per stdin line, one reply per
//! stdout line (spec/vectors.md, "Adapter protocol").
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

/// The packaged release (Cargo.toml pins it to the Debian crate).
const VERSION: &str = "0.11.2";

fn hex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// `serde_cbor::from_slice` into its dynamic `Value`: it refuses bytes after
/// the item and malformed input; it has no option for depth (its own limit
/// is 128), duplicates or strict modes.
fn answer(request: &Value) -> Value {
    let input = &request["input"];
    if request["family"] != "cbor" {
        return json!({"result": "unsupported", "error": "family is not mapped by this adapter"});
    }
    let mode = input["mode"].as_str().unwrap_or("wellFormed");
    if mode != "wellFormed" {
        return json!({"result": "unsupported", "error": format!("serde_cbor has no {} decoding mode", mode)});
    }
    if input["tagValidity"] == true {
        return json!({"result": "unsupported", "error": "serde_cbor has no option that checks tag content (tagValidity)"});
    }
    let data = match input["cborHex"].as_str().and_then(hex) {
        Some(data) => data,
        None => return json!({"result": "unsupported", "error": "cborHex is not hex"}),
    };
    match serde_cbor::from_slice::<serde_cbor::Value>(&data) {
        Ok(_) => json!({"result": "valid"}),
        Err(error) => json!({"result": "invalid", "error": error.to_string()}),
    }
}

fn main() {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let hello = json!({"adapter": "serde-cbor", "version": VERSION, "families": ["cbor"]});
    if writeln!(out, "{}", hello).and_then(|_| out.flush()).is_err() {
        return;
    }
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let Ok(request) = serde_json::from_str::<Value>(&line) else { continue };
        let mut reply = answer(&request);
        reply["id"] = request["id"].clone();
        if writeln!(out, "{}", reply).and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}
