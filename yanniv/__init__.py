"""YANNIV: a pure rules engine, a FastAPI game server and a browser client."""

__version__ = "0.1.0"
