#!/bin/sh
# The fake k6 (fake-k6.ts) as an executable, for PTAS_K6.
exec node --import tsx "$(dirname "$0")/fake-k6.ts" "$@"
