"""The game server: rooms, seats, the WebSocket protocol, timers and persistence."""
