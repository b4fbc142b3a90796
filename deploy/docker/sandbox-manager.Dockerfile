# sandbox-manager: the only service that talks to the container engine. Runs as root
# because it needs the engine's socket, which is root-equivalent on the host anyway; give
# the socket to this container and to no other.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}

ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && apt-get upgrade -y \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/lib/sandpiper

COPY sandbox-manager /usr/local/bin/sandbox-manager

WORKDIR /var/lib/sandpiper
ENV SANDBOX_MANAGER_HOST=0.0.0.0 \
    SANDBOX_MANAGER_PORT=8090 \
    SANDBOX_MANAGER_DATA_DIR=/var/lib/sandpiper
EXPOSE 8090
ENTRYPOINT ["/usr/local/bin/sandbox-manager"]
