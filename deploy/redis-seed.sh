#!/bin/sh
# Loads the Redis example's data (one command per line) once Redis answers.
set -eu
until redis-cli -h redis ping >/dev/null 2>&1; do sleep 1; done
redis-cli -h redis < /seed/seed.redis
