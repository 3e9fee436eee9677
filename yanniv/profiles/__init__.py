"""Profiles, finished-match records, statistics, ratings and the leaderboard."""
