"""HTML pages and static files of the browser client (the files themselves live in `web/`)."""
