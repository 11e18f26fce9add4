"""The live-value lab's DNS responder: answers A queries for the lab's names, over UDP.

    python3 dns.py ADDRESS PORT DOCUMENTS-ADDRESS

Names, by the first label under their domain:
  pub.test, ok*.wild.test   -> DOCUMENTS-ADDRESS
  slow*.wild.test           -> DOCUMENTS-ADDRESS, after 8 s
  nx*.wild.test             -> NXDOMAIN at once
  rebind*.test              -> DOCUMENTS-ADDRESS and 127.0.0.1 in turn, with TTL 0
  anything else             -> no answer at all (a silent name)
AAAA queries get an empty answer (NOERROR) for names that answer, and the same silence or
NXDOMAIN as A for the others. Each query is answered on a thread of its own.
"""

import socket
import struct
import sys
import threading
import time

address, port, documents = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind((address, port))
turns = {}
lock = threading.Lock()


def parse_name(packet, offset):
    labels = []
    while packet[offset] != 0:
        length = packet[offset]
        labels.append(packet[offset + 1 : offset + 1 + length].decode("ascii", "replace").lower())
        offset += 1 + length
    return ".".join(labels), offset + 1


def reply(packet, client, rcode, answers):
    ident = packet[:2]
    name_end = 12
    while packet[name_end] != 0:
        name_end += 1 + packet[name_end]
    question = packet[12 : name_end + 5]
    flags = 0x8180 | rcode  # response, recursion desired and available
    header = ident + struct.pack(">HHHHH", flags, 1, len(answers), 0, 0)
    body = b""
    for ip, ttl in answers:
        body += b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, ttl, 4) + socket.inet_aton(ip)
    sock.sendto(header + question + body, client)


def answer(packet, client):
    try:
        name, end = parse_name(packet, 12)
        qtype = struct.unpack(">H", packet[end : end + 2])[0]
    except Exception:
        return
    first = name.split(".")[0]
    if name == "pub.test" or (name.endswith(".wild.test") and first.startswith("ok")):
        reply(packet, client, 0, [(documents, 60)] if qtype == 1 else [])
    elif name.endswith(".wild.test") and first.startswith("slow"):
        time.sleep(8)
        reply(packet, client, 0, [(documents, 60)] if qtype == 1 else [])
    elif name.endswith(".wild.test") and first.startswith("nx"):
        reply(packet, client, 3, [])
    elif name.endswith(".test") and first.startswith("rebind"):
        if qtype != 1:
            reply(packet, client, 0, [])
            return
        with lock:
            turns[name] = turns.get(name, 0) + 1
            turn = turns[name]
        reply(packet, client, 0, [(documents if turn % 2 == 1 else "127.0.0.1", 0)])
    # Anything else: silence.


while True:
    packet, client = sock.recvfrom(4096)
    threading.Thread(target=answer, args=(packet, client), daemon=True).start()
