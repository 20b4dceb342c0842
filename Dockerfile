# Tablero in a container: python bot.py as an unprivileged user.
#   docker build -t tablero .
#   docker run -d --name tablero --env-file .env -v tablero-data:/data tablero
# With PostgreSQL: compose.yaml (docker compose up -d). See the README's "Hosting".

# A mirror or a pinned digest may replace the base: --build-arg PYTHON_IMAGE=...
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE}

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The bot's own user; it owns nothing but its data directory.
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home tablero \
    && mkdir -p /app /data \
    && chown tablero:tablero /data

WORKDIR /app
COPY pyproject.toml README.md bot.py ./
COPY rules ./rules
COPY storage ./storage
COPY services ./services
# cogs/pictures/fonts holds the DejaVu Sans faces every board picture is drawn with: the
# image needs no system fonts.
COPY cogs ./cogs
RUN pip install . \
    && python -m compileall -q /app

USER tablero

# SQLite by default, in the volume; compose.yaml sets a PostgreSQL address instead.
# The health file is rewritten every 30 s while the gateway is connected and the store
# answers; the check fails when it says otherwise or stops changing.
ENV TABLERO_DB=/data/tablero.db \
    TABLERO_LOG_FORMAT=json \
    TABLERO_HEALTH_FILE=/tmp/tablero-health.json \
    TABLERO_HEALTH_INTERVAL=30
VOLUME ["/data"]

HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "services.health", "--max-age", "90"]

# docker stop sends SIGTERM: the bot delivers what is in flight, closes the store and its
# picture workers, and exits 0 (give it time: docker stop -t 30).
STOPSIGNAL SIGTERM
CMD ["python", "bot.py"]
