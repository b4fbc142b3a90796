# backend-api: the API, the agent and the relays. The binary is built on the host by
# ./build.sh (Debian bookworm's glibc) and copied in; the front end is served by the
# frontend image, so this image carries no static files.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}

ARG DEBIAN_FRONTEND=noninteractive
# ca-certificates: TLS to the model and search providers; curl: the health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && apt-get upgrade -y \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/sandpiper --create-home sandpiper

COPY backend-api /usr/local/bin/backend-api

USER sandpiper
WORKDIR /var/lib/sandpiper
ENV BACKEND_HOST=0.0.0.0 \
    BACKEND_PORT=8000 \
    BACKEND_DATA_DIR=/var/lib/sandpiper
EXPOSE 8000
ENTRYPOINT ["/usr/local/bin/backend-api"]
