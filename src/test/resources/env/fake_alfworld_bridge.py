"""A fake ALFWorld bridge for tests: speaks the same JSON lines as the real bridge; a "game file" is JSON
{"task": TEXT, "solution": [ACTION, ...], "admissible": [ACTION, ...]}; the game is won when the solution's actions
were taken in order; "fail" in the task makes the episode end (done, not won) after the first step."""
import json
import sys

game = None
progress = 0
steps = 0
for line in sys.stdin:
    req = json.loads(line)
    cmd = req["cmd"]
    if cmd == "check":
        out = {"ok": True}
    elif cmd == "reset":
        game = json.load(open(req["gamefile"]))
        progress, steps = 0, 0
        out = {"ok": True, "obs": "-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room.\n\nYour task is to: " + game["task"],
               "admissible": game["admissible"] + ["help"], "done": False, "won": False}
    elif cmd == "step":
        steps += 1
        a = req["action"]
        if progress < len(game["solution"]) and a == game["solution"][progress]:
            progress += 1
            obs = "You did: " + a
        else:
            obs = "Nothing happens."
        won = progress == len(game["solution"])
        done = won or ("fail" in game["task"])
        out = {"ok": True, "obs": obs, "admissible": game["admissible"], "done": done, "won": won}
    elif cmd == "close":
        print(json.dumps({"ok": True}), flush=True)
        break
    else:
        out = {"ok": False, "error": "unknown"}
    print(json.dumps(out), flush=True)
