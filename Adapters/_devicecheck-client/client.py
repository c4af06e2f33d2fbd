#!/usr/bin/env python3
"""Real clients against `trustsuite serve devicecheck`.

    client.py roundtrip BASE_URL TEAM KEY_ID P8 TOKEN_A TOKEN_B OTHER_P8
        The third-party `devicecheck` package (PyPI) pointed at the local
        service through its DEVELOPMENT_URL class attribute: query before any
        set, set each bit, query again (from a second token of the same
        device), the month of the last update, a wrong key and a wrong team.
        Prints one JSON object with every answer.

    client.py load BASE_URL TEAM KEY_ID P8 REQUESTS CLIENTS TOKEN...
        REQUESTS requests from CLIENTS concurrent clients (threads, one
        keep-alive connection each). Clients come in pairs per device: one
        only ever sets bit0, the other only bit1, with queries in between, so
        a lost update shows as a bit that is not what its writer last wrote.
        Prints {"requests", "errors", "lost", "seconds", "throughput", "p50_ms", "p99_ms"}.
"""
import http.client
import json
import sys
import threading
import time
import urllib.parse
import uuid

import jwt
from devicecheck import DeviceCheck


def developer_token(team, key_id, p8_path):
    with open(p8_path) as handle:
        key = handle.read()
    return jwt.encode({"iss": team, "iat": int(time.time())}, key, algorithm="ES256", headers={"kid": key_id})


def client(base, team, key_id, p8_path):
    DeviceCheck.DEVELOPMENT_URL = base.rstrip("/")
    return DeviceCheck(team, "org.trustsuite.example", key_id, p8_path, dev_environment=True)


def describe(response):
    answer = {"status": response.status_code}
    if hasattr(response, "json_response"):
        answer["body"] = response.json_response
    else:
        answer["body"] = response.description
    return answer


def roundtrip(base, team, key_id, p8_path, token_a, token_b, other_p8):
    good = client(base, team, key_id, p8_path)
    steps = {}
    steps["validate"] = describe(good.validate_device_token(token_a))
    steps["query_before"] = describe(good.query_two_bits(token_a))
    steps["set_bit0"] = describe(good.update_two_bits(token_a, bit_0=True))
    steps["query_after_bit0"] = describe(good.query_two_bits(token_b))
    steps["set_bit1"] = describe(good.update_two_bits(token_b, bit_1=True))
    steps["clear_bit0"] = describe(good.update_two_bits(token_a, bit_0=False))
    steps["query_after_bit1"] = describe(good.query_two_bits(token_a))
    steps["wrong_key"] = describe(client(base, team, key_id, other_p8).query_two_bits(token_a))
    steps["wrong_team"] = describe(client(base, "ZZZZZ99999", key_id, p8_path).query_two_bits(token_a))
    steps["unknown_key_id"] = describe(client(base, team, "NOSUCHKEY1", p8_path).query_two_bits(token_a))
    print(json.dumps(steps, sort_keys=True))


def load(base, team, key_id, p8_path, total, clients, tokens):
    url = urllib.parse.urlparse(base)
    bearer = "Bearer " + developer_token(team, key_id, p8_path)
    per_client = total // clients
    latencies = [[] for _ in range(clients)]
    errors = [0] * clients
    last_written = [None] * clients

    def send(connection, endpoint, body):
        payload = json.dumps(body)
        start = time.perf_counter()
        connection.request("POST", "/v1/" + endpoint, body=payload,
                           headers={"Authorization": bearer, "Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        return response.status, data, time.perf_counter() - start

    def run(index):
        token = tokens[(index // 2) % len(tokens)]
        bit = "bit0" if index % 2 == 0 else "bit1"
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        value = False
        for n in range(per_client):
            body = {"device_token": token, "transaction_id": str(uuid.uuid4()), "timestamp": int(time.time() * 1000)}
            if n % 4 == 3 and n != per_client - 1:
                status, _, elapsed = send(connection, "query_two_bits", body)
            else:
                # Toggle, toggle, write again; the last write of every client
                # sets its bit, so an update that clears the other bit of the
                # device (a lost update) always shows in the final query.
                value = True if n == per_client - 1 else (not value if n % 4 != 2 else value)
                body[bit] = value
                status, _, elapsed = send(connection, "update_two_bits", body)
                if status == 200:
                    last_written[index] = value
            latencies[index].append(elapsed)
            if status != 200:
                errors[index] += 1
        connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - start

    # Every device's bits are what its two writers wrote last.
    lost = 0
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    for pair in range((clients + 1) // 2):
        token = tokens[pair % len(tokens)]
        body = {"device_token": token, "transaction_id": str(uuid.uuid4()), "timestamp": int(time.time() * 1000)}
        status, data, _ = send(connection, "query_two_bits", body)
        bits = json.loads(data) if status == 200 else {}
        for index, name in ((2 * pair, "bit0"), (2 * pair + 1, "bit1")):
            if index < clients and pair < len(tokens) and bits.get(name) != last_written[index]:
                lost += 1
    connection.close()

    every = sorted(value for values in latencies for value in values)
    count = len(every)
    print(json.dumps({
        "requests": count, "errors": sum(errors), "lost": lost, "seconds": round(seconds, 3),
        "throughput": round(count / seconds, 1) if seconds > 0 else 0,
        "p50_ms": round(every[count // 2] * 1000, 2) if count else 0,
        "p99_ms": round(every[min(count - 1, (count * 99) // 100)] * 1000, 2) if count else 0,
    }, sort_keys=True))


def main(argv):
    if len(argv) >= 8 and argv[1] == "roundtrip":
        roundtrip(*argv[2:9])
    elif len(argv) >= 9 and argv[1] == "load":
        load(argv[2], argv[3], argv[4], argv[5], int(argv[6]), int(argv[7]), argv[8:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
