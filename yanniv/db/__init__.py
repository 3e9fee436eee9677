"""Database plumbing shared by the server and the profiles: declarative base, engine, sessions."""
