#!/usr/bin/env bash
# doska's Insane against Moby Dam over DXP, at equal time per move:
#   bash bench/engines/mobydam/match.sh [GAMES] [MS] [PDN] [-- more doska dxp options]
# Moby Dam (built by build.sh into $MOBYDAM_DIR, default /tmp/doska-engines/mobydam) listens as
# the DXP follower, with its hard limit per move set to MS on its console ("time MS"); doska
# connects as the initiator (`doska dxp --connect`), chooses the openings (two plies from the
# start, each with both colours), thinks MS a move, referees every move with its own rules and
# prints the score. The game time sent in GAMEREQ (10 minutes for the whole game) is far more
# than the games use, so MS decides both sides' time.
set -euo pipefail
games=${1:-40}
ms=${2:-300}
pdn=${3:-/tmp/mobydam-match.pdn}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = "--" ] && shift
dir=${MOBYDAM_DIR:-/tmp/doska-engines/mobydam}
doska=${DOSKA:-$(cd "$(dirname "$0")/../../.." && pwd)/target/release/doska}
port=${PORT:-27531}
[ -x "$dir/mobydam" ] || { echo "match.sh: no $dir/mobydam (run build.sh first)" >&2; exit 1; }
log=$(mktemp -d)
# Moby Dam reads console commands on stdin: keep it open while the match runs.
mkfifo "$log/console"
(cd "$dir" && exec ./mobydam -p "$port" -t 22 -m "$log/dxp.log" -l "$log/engine.log" -f "$log/result%d.pdn" \
    < "$log/console" > "$log/mobydam.out" 2>&1) &
md=$!
exec 3> "$log/console"
echo "time $ms" >&3
trap 'echo exit >&3 2>/dev/null || true; exec 3>&-; kill $md 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    grep -q "listen\|waiting\|accept" "$log/mobydam.out" 2>/dev/null && break
    sleep 0.1
done
sleep 0.5
echo "Moby Dam's logs: $log"
"$doska" dxp --connect "127.0.0.1:$port" --games "$games" --movetime "$ms" --minutes 10 --pdn-out "$pdn" "$@"
