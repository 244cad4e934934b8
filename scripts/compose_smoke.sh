#!/usr/bin/env bash
# Smoke test of the container image and compose.yaml: build the image, start the stack (Qdrant
# and two `grk serve` replicas), ingest docs/samples into the collection on Qdrant, search
# through both replicas and check the citations (scripts/smoke/check.py); then stop and remove
# everything it started, volumes included.
#
#   scripts/compose_smoke.sh
#
# Docker (`docker compose`) when its engine answers, else podman with podman-compose. Settings,
# from the environment:
#   SMOKE_PYTHON_IMAGE  the base image (default python:3.11-slim-bookworm from Docker Hub)
#   SMOKE_QDRANT        "image" (default): qdrant/qdrant; "standin": groundkit's stand-in
#                       Qdrant REST server in its place, where no registry can be reached
#   SMOKE_CA_BUNDLE     (podman) a CA bundle for pip in the build, where the registry is
#                       reached through a proxy with a certificate of its own
#   PYTHON              the Python that runs the checks (default .venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."

if docker info >/dev/null 2>&1; then
    engine=(docker)
    compose=(docker compose)
    image_format=()
else
    engine=(podman)
    compose=(podman-compose)
    image_format=(--format docker) # OCI images carry no HEALTHCHECK
fi
files=(-f compose.yaml -f scripts/smoke/samples.yaml)
if [[ "${SMOKE_QDRANT:-image}" == standin ]]; then
    files+=(-f scripts/smoke/compose.standin.yaml)
fi
export COMPOSE_PROJECT_NAME=groundkit-smoke
export GRK_IMAGE=localhost/groundkit:smoke
QDRANT_API_KEY="$(python3 -c 'import secrets; print(secrets.token_hex(24))')"
export QDRANT_API_KEY
python="${PYTHON:-.venv/bin/python}"

step() { printf '\n== %s\n' "$*"; }
cleanup() {
    step "stop and remove the stack"
    "${compose[@]}" "${files[@]}" down --volumes >/dev/null 2>&1 || true
}
trap cleanup EXIT

step "build ${GRK_IMAGE} with ${engine[0]}"
build_args=()
if [[ -n "${SMOKE_PYTHON_IMAGE:-}" ]]; then
    build_args+=(--build-arg "PYTHON_IMAGE=${SMOKE_PYTHON_IMAGE}")
fi
if [[ -n "${SMOKE_CA_BUNDLE:-}" ]]; then
    build_args+=(-v "${SMOKE_CA_BUNDLE}:/run/smoke-ca.crt:ro" --build-arg PIP_CERT=/run/smoke-ca.crt)
fi
"${engine[@]}" build "${image_format[@]}" --network host "${build_args[@]}" -t "$GRK_IMAGE" . | tail -n 3
"${engine[@]}" image inspect "$GRK_IMAGE" --format 'size {{.Size}} bytes, user {{.Config.User}}'
"${engine[@]}" run --rm --entrypoint sh "$GRK_IMAGE" -c \
    'for tool in gcc cc g++ make; do if command -v "$tool" >/dev/null; then echo "a compiler in the image: $tool"; exit 1; fi; done; echo "no compiler in the image; runs as $(id -un)"'

step "start the stack"
"${compose[@]}" "${files[@]}" up -d --no-build
for port in 8765 8766; do
    for _ in $(seq 60); do
        if "$python" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=2)" 2>/dev/null; then
            echo "replica on :$port answers /healthz"
            continue 2
        fi
        sleep 1
    done
    echo "replica on :$port never answered"; "${compose[@]}" "${files[@]}" logs; exit 1
done

step "the image's HEALTHCHECK, in each replica"
for service in grk-1 grk-2; do
    container="$("${engine[@]}" ps -q --filter "label=com.docker.compose.service=$service")"
    if [[ "${engine[0]}" == podman ]]; then
        "${engine[@]}" healthcheck run "$container" # podman runs it when asked
    else
        for _ in $(seq 60); do
            [[ "$("${engine[@]}" inspect -f '{{.State.Health.Status}}' "$container")" == healthy ]] && break
            sleep 1
        done
    fi
    echo "$service: $("${engine[@]}" inspect -f '{{.State.Health.Status}}' "$container")"
done

step "ingest docs/samples into the collection on Qdrant (with vectors)"
"${compose[@]}" "${files[@]}" run --rm --no-deps grk-1 -c notes ingest /srv/samples --dense --quiet
"${compose[@]}" "${files[@]}" run --rm --no-deps grk-1 -c notes status

step "search through both replicas and check the citations"
"$python" scripts/smoke/check.py --ports 8765,8766 --collection notes
echo
echo "smoke test passed"
