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
- `uci`: a UCI engine's spellings (`uciok`), and plays `e2e4`;
- `strict-uci`: a UCI engine that knows no UGI: `ugi` is an unknown command, and a `go`
  with UGI's clock words (`p1time`...) or `uginewgame` ends it (status 5);
- `slow-ugi`: answers each handshake 0.5 s late, as an engine loading a network does;
- `slow`: answers `isready` and `query` 0.3 s late, each `response` numbered;
- `done-early`: at `go infinite`, one line (a mate found) and then silence until `stop`;
- `child`: starts a child that keeps its stdout open and outlives it; `go` names its pid;
- `stuck`: never answers `go`, and ignores SIGTERM and its stdin closing.

In every mode `go` tells the options set so far in an `info string`, and `stop` ends a
search that has not ended.
"""

import signal
import subprocess
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "silent"
out = sys.stdout


def say(line):
    out.write(line + "\n")
    out.flush()


if mode in ("deaf", "stuck"):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen(["sleep", "300"]) if mode == "child" else None
values = {}
answered = 0
searching = False

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if mode == "strict-uci" and command in ("ugi", "uginewgame", "query"):
        if command == "uginewgame":
            sys.exit(5)
        say(f"Unknown command: '{command}'. Type help for more information.")
        continue
    if command in ("ugi", "uci"):
        if mode == "no-handshake":
            continue
        if mode == "slow-ugi":
            time.sleep(0.5)
        say("id name fake " + mode)
        say("option name Hash type spin default 16 min 1 max 64")
        say("option name Style type combo default calm var calm var wild")
        if mode == "garbage":
            while True:
                say("#@! this is not the protocol")
        say("uciok" if mode in ("uci", "strict-uci") or command == "uci" else "ugiok")
    elif mode == "silent":
        continue
    elif command == "setoption" and "value" in words:
        at = words.index("value")
        values[" ".join(words[2:at])] = " ".join(words[at + 1 :])
    elif command == "isready":
        if mode == "slow":
            time.sleep(0.3)
        say("readyok")
    elif command == "query" and mode == "slow":
        time.sleep(0.3)
        answered += 1
        say(f"response {answered}")
    elif command == "stop":
        if searching:
            searching = False
            say("bestmove e2e4")
    elif command == "uginewgame" and mode == "uci":
        say("Unknown command: uginewgame")
        sys.exit(4)
    elif command == "go":
        say("info string options " + " ".join(f"{k}={v}" for k, v in sorted(values.items())))
        if mode == "strict-uci" and any(w in words for w in ("p1time", "p2time", "p1inc", "p2inc")):
            sys.stderr.write("fake: unknown go words\n")
            sys.exit(5)
        if mode == "stuck":
            continue
        if mode == "child":
            say(f"info string child {child.pid}")
        if mode == "done-early" and "infinite" in words:
            say("info depth 3 score mate 2 pv e2e4")
            searching = True
            continue
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
        say(
            "info depth 1 score mate 2 pv e2e4" if mode == "strict-uci" else "info depth 1 score cp 5 pv e2e4"
        )
        say("bestmove e2e4")
    elif command == "quit":
        if mode in ("deaf", "stuck"):
            continue
        break

if mode in ("deaf", "stuck"):
    while True:
        time.sleep(1)
