"""The `yanniv` console script: serve the app, run engine simulations and bot tournaments, or
write the protocol's JSON Schema."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="yanniv", description="YANNIV, the card game.")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--database-url", default=None, help="SQLAlchemy URL (default: SQLite file)")

    conf = sub.add_parser("balancer-conf",
                          help="print nginx's configuration for several serve processes")
    conf.add_argument("--listen", default="0.0.0.0:80", help="host:port nginx listens on")
    conf.add_argument("--upstream", action="append", metavar="HOST:PORT",
                      help="a `yanniv serve` process, as it advertises itself (repeatable)")
    conf.add_argument("--prefix", default="/var/lib/yanniv-nginx",
                      help="directory of nginx's pid, log and temporary files")
    conf.add_argument("--workers", default="auto", help="nginx worker processes")
    conf.add_argument("--resolver", default=None, metavar="ADDRESS",
                      help="DNS server: upstreams are names resolved at run time (nginx >= 1.27.3)")
    conf.add_argument("--error-log", default=None, help="instead of PREFIX/error.log, e.g. stderr")
    conf.add_argument("--compose", action="store_true",
                      help="docker-compose.yml's balancer (deploy/nginx.conf); no other option")

    sim = sub.add_parser("simulate", help="built-in policies play matches (engine benchmark)")
    sim.add_argument("--seats", type=int, default=4)
    sim.add_argument("--matches", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--manches", type=int, default=6)
    sim.add_argument("--game", default="yanniv", help="a registered game id")
    sim.add_argument("--option", action="append", metavar="NAME=JSON",
                     help="a rule option of the game, e.g. mandatory_powers=false (repeatable)")
    sim.add_argument(
        "--policies",
        default="greedy",
        help="comma-separated policy names, one per seat or one for all (random, greedy)",
    )

    tour = sub.add_parser("tournament", help="bots play matches, seats rotating; win rates")
    tour.add_argument("--seats", type=int, default=4)
    tour.add_argument("--matches", type=int, default=100)
    tour.add_argument("--policies", default="difficile,moyen,moyen,moyen")
    tour.add_argument("--seed", type=int, default=1)
    tour.add_argument("--manches", type=int, default=6)
    tour.add_argument("--workers", type=int, default=2)
    tour.add_argument("--json", action="store_true", help="print the figures as JSON")
    tour.add_argument("--game", default="yanniv", help="a registered game id")
    tour.add_argument("--option", action="append", metavar="NAME=JSON",
                      help="a rule option of the game, e.g. mandatory_powers=false (repeatable)")

    schema = sub.add_parser("schema", help="write docs/protocol*.schema.json from the code")
    schema.add_argument("--output", default=None,
                        help="the file to write (one game: --game, else the default game)")
    schema.add_argument("--game", default=None, help="one game's schema (default: every game)")
    schema.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the file is not up to date")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a sub-command; heavy imports happen only in the chosen one."""
    args = _build_parser().parse_args(argv)
    if args.command == "serve":
        from yanniv.app import serve

        serve(host=args.host, port=args.port, database_url=args.database_url)
        return 0
    if args.command == "balancer-conf":
        from pathlib import Path

        from yanniv.server.cluster.balancer import compose_conf, nginx_conf

        if args.compose:
            sys.stdout.write(compose_conf())
            return 0
        if not args.upstream:
            sys.stderr.write("yanniv balancer-conf: --upstream (or --compose) is required\n")
            return 2
        sys.stdout.write(nginx_conf(args.listen, args.upstream, Path(args.prefix), args.workers,
                                    resolver=args.resolver, error_log=args.error_log))
        return 0
    if args.command == "simulate":
        from yanniv.games.interface import parse_options
        from yanniv.tools.simulate import run_simulation

        summary = run_simulation(
            seats=args.seats,
            matches=args.matches,
            seed=args.seed,
            manches=args.manches,
            policies=args.policies.split(","),
            game_id=args.game,
            options=parse_options(args.option),
        )
        import json

        json.dump(summary, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    if args.command == "tournament":
        from yanniv.tools.tournament import cli_tournament

        return cli_tournament(args)
    if args.command == "schema":
        from pathlib import Path

        from yanniv.games import DEFAULT_GAME, GAMES, get_game
        from yanniv.server.realtime.protocol_schema import schema_path, write_schema

        # One --output file holds one game's schema: the named one, else the default game.
        if args.game or args.output:
            games = [get_game(args.game or DEFAULT_GAME)]
        else:
            games = list(GAMES.values())
        stale = 0
        for game in games:
            path = Path(args.output) if args.output else schema_path(game)
            current = write_schema(path, check=args.check, game=game)
            if args.check and not current:
                sys.stderr.write(f"{path} is out of date: run `yanniv schema`\n")
                stale += 1
            else:
                sys.stdout.write(f"{path}: {'up to date' if current else 'written'}\n")
        return 1 if stale else 0
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
