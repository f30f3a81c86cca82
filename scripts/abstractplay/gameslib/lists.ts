// AbstractPlay's own Lielow move lists for ternion's games: reads the games file written by
// `dump_games_for_abstractplays_own_code` (a line a game: `-` or `size-9`, then the moves),
// replays each through AbstractPlay's LielowGame, and writes at every ply its sorted
// moves() as "<e|n><game> <ply> <m1,m2,...>", the form of ternion's own lists file; the
// game must be over after its last move. Usage: tsx lists.ts games.txt lists-gameslib.txt
import { LielowGame } from "./src/games/lielow";
import * as fs from "fs";

const lines = fs.readFileSync(process.argv[2], "utf8").trim().split("\n");
const out: string[] = [];
const counts = { e: 0, n: 0 };
for (const line of lines) {
    const words = line.trim().split(/\s+/);
    const nine = words[0] === "size-9";
    const tag = nine ? `n${counts.n++}` : `e${counts.e++}`;
    const game = new LielowGame(undefined, nine ? ["size-9"] : []);
    const moves = words.slice(1);
    for (let ply = 0; ; ply++) {
        out.push(`${tag} ${ply} ${[...game.moves()].sort().join(",")}`);
        if (ply === moves.length) { break; }
        game.move(moves[ply]);
    }
    if (!game.gameover) { out.push(`${tag} NOT OVER after ${moves.length} moves`); }
}
fs.writeFileSync(process.argv[3], out.join("\n") + "\n");
