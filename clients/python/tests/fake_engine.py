"""A misbehaving UGI engine for the client's tests: `python fake_engine.py <mode>`.

It answers the handshake, `isready` and `position` as an engine does, then misbehaves as
its mode says:

- `die-on-go`: writes a line on stderr and exits (status 3) at `go`;
- `silent`: reads everything, answers nothing after the handshake;
- `no-handshake`: never says `ugiok`;
- `garbage`: answers each command with endless lines that are no protocol;
- `flood`: at `go`, endless `info` lines and never a `bestmove`;
- `long-line`: at `go`, one line of 8 MiB;
- `bad-bestmove`: at `go`, a `bestmove` without a move;
- `deaf`: ignores `quit`, SIGTERM and its stdin closing (only SIGKILL ends it);
- `uci`: a UCI engine's spellings (`uciok`), and plays `e2e4`.
"""

import signal
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "silent"
out = sys.stdout


def say(line):
    out.write(line + "\n")
    out.flush()


if mode == "deaf":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command in ("ugi", "uci"):
        if mode == "no-handshake":
            continue
        say("id name fake " + mode)
        say("option name Hash type spin default 16 min 1 max 64")
        say("option name Style type combo default calm var calm var wild")
        if mode == "garbage":
            while True:
                say("#@! this is not the protocol")
        say("uciok" if mode == "uci" else "ugiok")
    elif mode == "silent":
        continue
    elif command == "isready":
        say("readyok")
    elif command == "uginewgame" and mode == "uci":
        say("Unknown command: uginewgame")
        sys.exit(4)
    elif command == "go":
        if mode == "die-on-go":
            sys.stderr.write("fake: cannot search, giving up\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == "flood":
            depth = 0
            while True:
                depth += 1
                say(f"info depth {depth} score cp 0 nodes {depth} pv e2e4")
        if mode == "long-line":
            out.write("info string " + "x" * (8 * 1024 * 1024))
            out.flush()
            time.sleep(60)
        if mode == "bad-bestmove":
            say("bestmove")
            continue
        say("info depth 1 score cp 5 pv e2e4")
        say("bestmove e2e4")
    elif command == "quit":
        if mode == "deaf":
            continue
        break

if mode == "deaf":
    while True:
        time.sleep(1)
