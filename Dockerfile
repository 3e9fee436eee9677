# The YANNIV app. Alone (`docker run`): one process, rooms in memory, schema upgraded at start.
# As a replica of docker-compose.yml: YANNIV_CLUSTER=1 and YANNIV_ADVERTISE_URL=auto (the
# container's own IP) from the environment, same image and command (docs/cluster.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY yanniv/__init__.py yanniv/py.typed yanniv/
RUN pip install . && pip uninstall -y yanniv

COPY . .
# Editable: the app finds web/ and migrations/ next to the package, in /app.
RUN pip install --no-deps -e . \
    && useradd --create-home --uid 10001 yanniv \
    && chown -R yanniv /app
USER yanniv

EXPOSE 8000
# Ready: the database answers and the room leases are renewed (503 otherwise).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"
CMD ["yanniv", "serve", "--host", "0.0.0.0", "--port", "8000"]
