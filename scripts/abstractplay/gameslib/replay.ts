// Replays games through AbstractPlay's own LielowGame, each move checked as the site checks
// a submitted one (in moves(), and validateMove() says valid and complete). Reads lines
// "<- | size-9> <move> <move> ..." on stdin (what the stand-in tests write to
// AP_STANDIN_RECORDS); prints "ok <n> moves, winner [..]" a game, or the first refusal.
// Usage: tsx replay.ts < records.txt
import { LielowGame } from "./src/games/lielow";
import * as readline from "readline";

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
    const words = line.trim().split(/\s+/);
    if (words[0] === "") { return; }
    const game = new LielowGame(undefined, words[0] === "size-9" ? ["size-9"] : []);
    let played = 0;
    for (const m of words.slice(1)) {
        if (!game.moves().includes(m)) {
            console.log(`REFUSED ${m} at ply ${played + 1}: not one of moves()`);
            return;
        }
        const verdict = game.validateMove(m);
        if (!verdict.valid || verdict.complete !== 1) {
            console.log(`REFUSED ${m} at ply ${played + 1}: ${JSON.stringify(verdict)}`);
            return;
        }
        game.move(m);
        played++;
    }
    console.log(`ok ${played} moves, gameover ${game.gameover}, winner ${JSON.stringify(game.winner)}`);
});
