# shellcheck shell=bash
# The serve rows of scripts/bench: `memoapp serve` (the HTTP API) under wrk on
# loopback, side by side in one run with two peers on the same data:
#   nginx      serving the very bytes memoapp answers GET /api/v1/todos?limit=50
#              and GET /api/v1/todos/{id} with, saved as static files (the floor:
#              nothing is faster at sending bytes that exist already);
#   datasette  serving the same SQLite table as JSON (what a user would pick to
#              put SQLite on HTTP), installed from PyPI into a virtual
#              environment under the cache folder.
# Targets (issue 13):
#   GET /todos?limit=50   >= 0.25x nginx, >= 20x datasette, p99 <= 10 ms
#   GET /todos/{id}       >= 0.4x nginx
#   POST /todos           >= 2,000/s, every write durable (data home on tmpfs)
#   GET /events           1,000 subscribers all told of a 2 s countdown's end
#                         within 50 ms, server peak RSS <= 128 MB
#   slow clients          500 connections trickling a request head while a
#                         normal GET is answered in <= 100 ms
#   POST /voice           a 1 h WAV upload <= 1.3x `voice import` of the same
#                         file, server peak RSS <= 64 MB
# Sourced by scripts/bench after lib.sh.
#
# Method: wrk -t1 -c16 (one client thread, 16 connections; --quick: 3 s, else
# 5 s) per peer, the peers alternating over BENCH_ROUNDS rounds so a change in
# the machine's load falls on every side alike; each row shows the median
# round's requests/s and latencies, the note the range of the rounds. Server
# request logs go to /dev/null. The peak RSS is VmHWM in /proc/PID/status.

SERVE_CONNECTIONS=16
SERVE_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/memoapp-bench"

# serve_free_port: a TCP port on 127.0.0.1 that nothing listens on now.
serve_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# serve_wait_for URL: until URL answers (any status), at most 20 s.
serve_wait_for() {
  local _
  for _ in $(seq 1 200); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  bench_die "nothing answers at $1"
}

# serve_start_memoapp HOME: starts `memoapp serve` on HOME on a free port;
# sets SERVE_PID and SERVE_URL.
serve_start_memoapp() {
  local out="$BENCH_WORK/serve.out.$RANDOM" _
  "$BENCH_BIN" --home "$1" --json serve --listen 127.0.0.1:0 > "$out" 2>/dev/null &
  SERVE_PID=$!
  BENCH_CHILDREN+=("$SERVE_PID")
  for _ in $(seq 1 200); do
    [ -s "$out" ] && break
    sleep 0.1
  done
  SERVE_URL=$(head -n 1 "$out" | jq -r .url)
  [ -n "$SERVE_URL" ] && [ "$SERVE_URL" != null ] || bench_die "memoapp serve printed no URL"
}

# serve_stop PID: SIGTERM, then waits for it.
serve_stop() {
  kill -TERM "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# serve_vm_hwm_mb PID: the peak resident memory of a running process, in MB.
serve_vm_hwm_mb() {
  awk '/^VmHWM:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"
}

# serve_wrk NAME URL [wrk options...]: one wrk run (SERVE_DURATION seconds,
# default SERVE_SECONDS); appends "requests/s p50_ms
# p99_ms" to $BENCH_WORK/results/NAME.wrk. Non-2xx answers end the bench.
serve_wrk() {
  local name="$1" url="$2" out
  shift 2
  mkdir -p "$BENCH_WORK/results"
  out="$BENCH_WORK/results/$name.last"
  # A 30 s time-out: a slow peer's answers count, late, rather than vanish as errors.
  wrk -t1 -c"$SERVE_CONNECTIONS" -d"${SERVE_DURATION:-$SERVE_SECONDS}"s --timeout 30s --latency "$@" "$url" > "$out" 2>&1 ||
    bench_die "wrk failed on $url: $(cat "$out")"
  if grep -q "Non-2xx" "$out"; then bench_die "$name: some answers were not 2xx: $(cat "$out")"; fi
  awk '
    function ms(v) {
      if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /m$/) return v * 60000
      if (v ~ /s$/) return v * 1000; return v + 0 }
    /^Requests\/sec:/ { rate = $2 }
    $1 == "50%" { p50 = ms($2) }
    $1 == "99%" { p99 = ms($2) }
    END { if (rate == "" || rate + 0 == 0) exit 1; printf "%s %.3f %.3f\n", rate, p50, p99 }' "$out" >> "$BENCH_WORK/results/$name.wrk" ||
    bench_die "no figures in wrk's output: $(cat "$out")"
}

# serve_median NAME COLUMN: the median round of NAME by requests/s, its COLUMN
# (1 requests/s, 2 p50 ms, 3 p99 ms).
serve_median() {
  sort -g "$BENCH_WORK/results/$1.wrk" | awk -v c="$2" '{ row[NR] = $0 }
    END { split(row[int((NR + 1) / 2)], f, " "); print f[c] }'
}

# serve_range NAME: "lo-hi/s" over NAME's rounds.
serve_range() {
  sort -g "$BENCH_WORK/results/$1.wrk" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f-%.0f/s", lo, hi }'
}

# serve_start_nginx DIR [DIRECTIVES]: nginx, as this user with a configuration of
# its own, serving DIR on a free port, with DIRECTIVES added to its server block;
# sets NGINX_PID and NGINX_URL.
serve_start_nginx() {
  local root="$1" directives="${2:-}" prefix="$BENCH_WORK/nginx" port
  port=$(serve_free_port)
  mkdir -p "$prefix/logs" "$prefix/temp"
  # Two workers for two cores, as memoapp's pool has threads for them; the
  # user directive only matters (and is only allowed to) when run as root.
  cat > "$prefix/nginx.conf" <<CONF
daemon off;
worker_processes 2;
$([ "$(id -u)" -eq 0 ] && echo "user root root;")
pid $prefix/nginx.pid;
error_log $prefix/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $prefix/temp/body;
  proxy_temp_path $prefix/temp/proxy;
  fastcgi_temp_path $prefix/temp/fastcgi;
  uwsgi_temp_path $prefix/temp/uwsgi;
  scgi_temp_path $prefix/temp/scgi;
  default_type application/json;
  server {
    listen 127.0.0.1:$port;
    root $root;
    $directives
  }
}
CONF
  nginx -p "$prefix" -e "$prefix/logs/error.log" -c "$prefix/nginx.conf" 2>"$prefix/logs/start.log" &
  NGINX_PID=$!
  BENCH_CHILDREN+=("$NGINX_PID")
  NGINX_URL="http://127.0.0.1:$port"
  serve_wait_for "$NGINX_URL/"
}

# serve_datasette: datasette in a virtual environment under the cache folder,
# installed on first use; sets DATASETTE.
serve_datasette() {
  local venv="$SERVE_CACHE/datasette-venv"
  if [ ! -x "$venv/bin/datasette" ]; then
    bench_log "installing datasette into $venv..."
    mkdir -p "$SERVE_CACHE"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install -q datasette >&2
  fi
  DATASETTE="$venv/bin/datasette"
}

# serve_start_datasette DB: datasette serving DB (read-only) on a free port;
# sets DATASETTE_PID and DATASETTE_URL.
serve_start_datasette() {
  local port
  port=$(serve_free_port)
  "$DATASETTE" serve --immutable "$1" -h 127.0.0.1 -p "$port" >/dev/null 2>"$BENCH_WORK/datasette.log" &
  DATASETTE_PID=$!
  BENCH_CHILDREN+=("$DATASETTE_PID")
  DATASETTE_URL="http://127.0.0.1:$port"
  serve_wait_for "$DATASETTE_URL/"
}

section_serve() {
  bench_need wrk nginx sox curl python3
  SERVE_SECONDS=$([ "$BENCH_QUICK" -eq 1 ] && echo 3 || echo 5)
  local rounds=$BENCH_ROUNDS home="$BENCH_HOMES/serve" clients
  clients="$(dirname "${BASH_SOURCE[0]}")/serve-clients.py"
  serve_datasette

  bench_log "filling a data home with 10,000 to-dos for the server..."
  bench_new_home "$home"
  bench_fill_notes "$home/memoapp.db" 10000
  local token
  token=$("$BENCH_BIN" --home "$home" --json token create bench | jq -r .token)
  local auth="Authorization: Bearer $token"

  # The peers' data: memoapp's answers as files, its table in a database of its own
  # (memoapp.db's search index needs memoapp's tokenizer, which datasette lacks).
  serve_start_memoapp "$home"
  local static="$BENCH_WORK/static" id
  mkdir -p "$static"
  curl -sf -H "$auth" "$SERVE_URL/api/v1/todos?limit=50" > "$static/list.json" || bench_die "GET /api/v1/todos failed"
  id=$(jq '.[0].id' "$static/list.json")
  curl -sf -H "$auth" "$SERVE_URL/api/v1/todos/$id" > "$static/item.json" || bench_die "GET /api/v1/todos/$id failed"
  [ "$(jq length "$static/list.json")" -eq 50 ] || bench_die "GET /api/v1/todos?limit=50 did not answer 50 to-dos"
  rm -f "$BENCH_WORK/db.db"
  sqlite3 "$BENCH_WORK/db.db" "ATTACH '$home/memoapp.db' AS memoapp; CREATE TABLE todos AS SELECT * FROM memoapp.todos;"
  serve_start_nginx "$static"
  serve_start_datasette "$BENCH_WORK/db.db"
  curl -sf "$DATASETTE_URL/db/todos.json?_size=50" >/dev/null || bench_die "datasette does not answer /db/todos.json"

  bench_log "measuring GET /todos and /todos/{id} against nginx and datasette ($rounds rounds of wrk -t1 -c$SERVE_CONNECTIONS -d${SERVE_SECONDS}s)..."
  local _
  for _ in $(seq 1 "$rounds"); do
    serve_wrk list "$SERVE_URL/api/v1/todos?limit=50" -H "$auth"
    serve_wrk nginx_list "$NGINX_URL/list.json"
    # Four times as long: datasette answers a few requests a second here, so
    # sixteen connections' first answers can take longer than a short run.
    SERVE_DURATION=$((SERVE_SECONDS * 4)) serve_wrk datasette_list "$DATASETTE_URL/db/todos.json?_size=50"
    serve_wrk item "$SERVE_URL/api/v1/todos/$id" -H "$auth"
    serve_wrk nginx_item "$NGINX_URL/item.json"
    serve_wrk health "$SERVE_URL/api/v1/health"
  done
  serve_stop "$DATASETTE_PID"
  serve_stop "$NGINX_PID"

  local list list_p50 list_p99 nginx_list datasette_list item nginx_item
  list=$(serve_median list 1); list_p50=$(serve_median list 2); list_p99=$(serve_median list 3)
  nginx_list=$(serve_median nginx_list 1); datasette_list=$(serve_median datasette_list 1)
  item=$(serve_median item 1); nginx_item=$(serve_median nginx_item 1)
  local bytes
  bytes="$(stat -c %s "$static/list.json") B"
  serve_at_least "GET /todos?limit=50 (req/s)" "$list" nginx "$nginx_list" 0.25 \
    "$bytes, p50 $(bench_fmt "$list_p50" ms); memoapp $(serve_range list), nginx $(serve_range nginx_list)"
  serve_at_least "GET /todos?limit=50 (req/s)" "$list" datasette "$datasette_list" 20 \
    "datasette p50 $(bench_fmt "$(serve_median datasette_list 2)" ms), $(serve_range datasette_list)"
  bench_limit "GET /todos?limit=50, p99" "$list_p99" ms "<=" 10 "wrk -t1 -c$SERVE_CONNECTIONS" \
    nginx "$(serve_median nginx_list 3)"
  serve_at_least "GET /todos/{id} (req/s)" "$item" nginx "$nginx_item" 0.4 \
    "$(stat -c %s "$static/item.json") B, p50 $(bench_fmt "$(serve_median item 2)" ms), p99 $(bench_fmt "$(serve_median item 3)" ms); $(serve_range item)"
  bench_judged "GET /health (req/s)" "$(bench_fmt "$(serve_median health 1)" /s)" - - - "(info)" - \
    "p50 $(bench_fmt "$(serve_median health 2)" ms); the floor of memoapp's own HTTP path"

  bench_log "measuring POST /todos ($rounds rounds)..."
  cat > "$BENCH_WORK/post.lua" <<'LUA'
-- wrk: every request a POST /api/v1/todos with the same small body.
wrk.method = "POST"
wrk.body = '{"title": "bench 할 일", "tags": ["bench"]}'
wrk.headers["Content-Type"] = "application/json"
LUA
  local before after
  before=$(sqlite3 "$home/memoapp.db" "SELECT count(*) FROM todos")
  for _ in $(seq 1 "$rounds"); do
    serve_wrk post "$SERVE_URL/api/v1/todos" -H "$auth" -s "$BENCH_WORK/post.lua"
  done
  after=$(sqlite3 "$home/memoapp.db" "SELECT count(*) FROM todos")
  local posted
  posted=$(awk '{ n += 1 } END { print n }' "$BENCH_WORK/results/post.wrk")
  bench_limit "POST /todos (req/s)" "$(serve_median post 1)" /s ">=" 2000 \
    "p50 $(bench_fmt "$(serve_median post 2)" ms), p99 $(bench_fmt "$(serve_median post 3)" ms); $(serve_range post); $((after - before)) to-dos stored in $posted rounds; data home on $(stat -f -c %T "$home")"

  bench_log "measuring 1,000 event-stream subscribers told of a 2 s countdown's end..."
  local worst median told count rss
  read -r worst median told count rss < <(python3 "$clients" sse "$SERVE_URL" "$token" 1000 "$SERVE_PID")
  [ -n "$rss" ] || bench_die "the event-stream clients failed"
  local result="ok"
  awk -v w="$worst" -v t="$told" -v c="$count" 'BEGIN { exit !(w <= 50 && t == c) }' || result="MISS"
  bench_judged "GET /events, 1,000 told of a timer" "$(bench_fmt "$worst" ms)" - - - "<= 50 ms, all" "$result" \
    "worst after the countdown's end; median $(bench_fmt "$median" ms); $told of $count told"
  bench_limit "GET /events, 1,000: server RSS" "$rss" MB "<=" 128 "VmHWM of the server so far (10,000 to-dos, the wrk runs before)"

  # The same server: the 1,000 subscribers above have just hung up, and
  # their connections must be free again (1,000 held + 500 slow clients
  # would pass the limit of 1,024 connections).
  bench_log "measuring a GET beside 500 slow clients..."
  local answered unanswered open
  read -r worst median answered unanswered open < <(python3 "$clients" slow "$SERVE_URL" "$token" 500 10)
  [ -n "$open" ] || bench_die "the slow clients failed"
  result="ok"
  awk -v w="$worst" -v u="$unanswered" 'BEGIN { exit !(w <= 100 && u == 0) }' || result="MISS"
  bench_judged "GET beside 500 slow clients" "$(bench_fmt "$worst" ms)" - - - "<= 100 ms, all" "$result" \
    "worst of $((answered + unanswered)) GET /todos?limit=50 over 10 s ($unanswered unanswered in 5 s), median $(bench_fmt "$median" ms); $open slow connections open at the end"
  serve_stop "$SERVE_PID"

  serve_upload "$rounds"
}

# serve_median_ms FILE: the median of FILE's times in seconds, in ms.
serve_median_ms() {
  sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] * 1000 }'
}

# serve_at_least OP OURS PEER THEIRS MIN_RATIO NOTE: a requests/s row whose target
# is memoapp at least MIN_RATIO times the peer.
serve_at_least() {
  local ratio result
  ratio=$(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2fx", a / b }')
  result=$(awk -v r="${ratio%x}" -v m="$5" 'BEGIN { print (r + 0 >= m + 0) ? "ok" : "MISS" }')
  bench_judged "$1" "$(bench_fmt "$2" /s)" "$3" "$(bench_fmt "$4" /s)" "$ratio" ">= ${5}x" "$result" "$6"
}

# serve_upload ROUNDS: a 1 h WAV (--quick: 20 min) as POST /api/v1/voice to a
# server on a fresh data home, against `memoapp voice import` of the same file
# into another, ROUNDS times each, alternating. Two peers show what the client
# side costs: curl sending the file to a server that throws the bytes away
# (upload-sink.py: the floor of any upload here), and nginx storing it as a
# file (WebDAV PUT: received and written, not decoded).
serve_upload() {
  local seconds=3600 name="1 h" file round home upload import rss="" times="$BENCH_WORK/results"
  [ "$BENCH_QUICK" -eq 1 ] && { seconds=1200; name="20 min"; }
  file="$BENCH_WORK/audio/upload.wav"
  mkdir -p "$BENCH_WORK/audio"
  [ -f "$file" ] || sox -n -r 44100 -c 1 -b 16 "$file" synth "$seconds" pinknoise vol 0.5
  bench_log "measuring a $name WAV upload against voice import, a discarding sink and nginx PUT ($1 rounds)..."
  : > "$times/upload.times"; : > "$times/import.times"; : > "$times/upload.rss"
  : > "$times/sink.times"; : > "$times/put.times"
  local sink_pid sink_port put_root="$BENCH_WORK/put"
  mkdir -p "$put_root"
  coproc SINK { python3 "$(dirname "${BASH_SOURCE[0]}")/upload-sink.py"; }
  sink_pid=$SINK_PID
  BENCH_CHILDREN+=("$sink_pid")
  read -r sink_port <&"${SINK[0]}" || bench_die "the upload sink did not start"
  serve_start_nginx "$put_root" \
    "client_max_body_size 0; client_body_buffer_size 1m; location /upload/ { dav_methods PUT; create_full_put_path on; }"
  for round in $(seq 1 "$1"); do
    upload=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -T "$file" "http://127.0.0.1:$sink_port/upload")
    [ "${upload%% *}" = 201 ] || bench_die "the upload sink answered ${upload%% *}"
    echo "${upload#* }" >> "$times/sink.times"
    upload=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -T "$file" "$NGINX_URL/upload/$round.wav")
    [ "${upload%% *}" = 201 ] || bench_die "nginx PUT answered ${upload%% *}"
    echo "${upload#* }" >> "$times/put.times"
    rm -f "$put_root/upload/$round.wav"
    home="$BENCH_HOMES/upload-$round"
    bench_new_home "$home"
    local token
    token=$("$BENCH_BIN" --home "$home" --json token create bench | jq -r .token)
    serve_start_memoapp "$home"
    upload=$(curl -s -o "$BENCH_WORK/upload.out" -w '%{http_code} %{time_total}' -X POST -T "$file" \
      -H "Authorization: Bearer $token" -H "Content-Type: audio/wav" "$SERVE_URL/api/v1/voice?title=bench")
    [ "${upload%% *}" = 201 ] || bench_die "POST /api/v1/voice answered ${upload%% *}: $(head -c 300 "$BENCH_WORK/upload.out")"
    echo "${upload#* }" >> "$times/upload.times"
    serve_vm_hwm_mb "$SERVE_PID" >> "$times/upload.rss"; echo >> "$times/upload.rss"
    serve_stop "$SERVE_PID"
    rm -rf "$home"
    home="$BENCH_HOMES/import-$round"
    bench_new_home "$home"
    local started=$EPOCHREALTIME
    "$BENCH_BIN" --home "$home" voice import "$file" >/dev/null || bench_die "voice import failed"
    awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f\n", b - a }' >> "$times/import.times"
    rm -rf "$home"
  done
  serve_stop "$NGINX_PID"
  serve_stop "$sink_pid"
  local median_upload median_import worst_rss
  median_upload=$(serve_median_ms "$times/upload.times")
  median_import=$(serve_median_ms "$times/import.times")
  worst_rss=$(sort -g "$times/upload.rss" | tail -n 1)
  bench_compare "POST /voice $name WAV" "$median_upload" "voice import" "$median_import" ms 1.3 \
    "$(du -h "$file" | cut -f1); upload (s): $(paste -sd' ' "$times/upload.times"); import: $(paste -sd' ' "$times/import.times")"
  bench_compare "POST /voice $name WAV" "$median_upload" "curl to a sink" "$(serve_median_ms "$times/sink.times")" ms - \
    "the floor: curl -T to a server that discards the body; $(paste -sd' ' "$times/sink.times")"
  bench_compare "POST /voice $name WAV" "$median_upload" "nginx PUT" "$(serve_median_ms "$times/put.times")" ms - \
    "nginx storing the same bytes as a file (WebDAV PUT); $(paste -sd' ' "$times/put.times")"
  bench_limit "POST /voice $name WAV, server RSS" "$worst_rss" MB "<=" 64 "VmHWM of a server on a fresh data home, worst of $1"
}
