"""SkillOpt4J ALFWorld bridge: one TextWorld/ALFWorld game per process, driven by JSON lines on stdin/stdout.

Requests:  {"cmd": "check"} | {"cmd": "reset", "gamefile": PATH, "max_steps": N} | {"cmd": "step", "action": TEXT} | {"cmd": "close"}
Replies:   {"ok": true, ...} with "obs", "admissible" (list), "done", "won" for reset/step; {"ok": false, "error": TEXT} on failure.
Needs: pip install alfworld (TextWorld + PDDL), game files from `alfworld-download` under $ALFWORLD_DATA.
"""
import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main():
    env = None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            cmd = req.get("cmd")
            if cmd == "check":
                import alfworld  # noqa: F401
                import textworld  # noqa: F401
                reply({"ok": True})
            elif cmd == "reset":
                import textworld
                import textworld.gym
                from alfworld.agents.environment.alfred_tw_env import AlfredDemangler, AlfredInfos
                infos = textworld.EnvInfos(won=True, admissible_commands=True, extras=["gamefile"])
                env_id = textworld.gym.register_game(req["gamefile"], infos, max_episode_steps=int(req.get("max_steps", 50)) + 1,
                                                     wrappers=[AlfredDemangler(), AlfredInfos])
                env = textworld.gym.make(env_id)
                obs, info = env.reset()
                reply({"ok": True, "obs": obs, "admissible": list(info.get("admissible_commands") or []),
                       "done": False, "won": bool(info.get("won"))})
            elif cmd == "step":
                obs, score, done, info = env.step(req["action"])
                reply({"ok": True, "obs": obs, "admissible": list(info.get("admissible_commands") or []),
                       "done": bool(done), "won": bool(info.get("won")), "reward": float(score or 0)})
            elif cmd == "close":
                reply({"ok": True})
                return
            else:
                reply({"ok": False, "error": "unknown cmd %r" % cmd})
        except Exception as e:  # reported to Java as one line
            reply({"ok": False, "error": "%s: %s" % (type(e).__name__, e)})


if __name__ == "__main__":
    main()
