# frontend: nginx serving the built app (frontend/dist) and passing /api, /health,
# /ready and the API docs to backend-api, with streaming (SSE) and WebSocket upgrades left unbuffered;
# the app's own files carry the Content-Security-Policy of security-headers.conf.
# The only container that listens outside the deployment's networks.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}

ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx-light curl \
    && apt-get upgrade -y \
    && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* \
    && ln -sf /dev/stdout /var/log/nginx/access.log \
    && ln -sf /dev/stderr /var/log/nginx/error.log \
    && chown -R www-data:www-data /var/lib/nginx

COPY nginx.conf security-headers.conf /etc/nginx/
COPY frontend-start.sh /usr/local/bin/frontend-start
COPY dist/ /usr/share/sandpiper/

USER www-data
EXPOSE 8080
ENTRYPOINT ["frontend-start"]
