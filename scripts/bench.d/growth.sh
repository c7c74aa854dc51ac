# shellcheck shell=bash
# "How cost grows" in scripts/bench: `todo add`, `todo list` and
# `search` on data homes of 1,000, 10,000 and 100,000 to-dos and as many memos
# (--quick: 1,000 and 10,000), a line per size, with sqlite3 doing the same
# insert and select beside them. No targets here: the figures show whether a
# command's cost follows the work it must do (a list prints every open to-do, so
# it grows with them) or stays put (an insert, an indexed search).
# Sourced by scripts/bench after lib.sh.

section_growth() {
  bench_need sqlite3
  local sizes=(1000 10000 100000) size home db rows bin="$BENCH_BIN"
  [ "$BENCH_QUICK" -eq 1 ] && sizes=(1000 10000)
  local file="$BENCH_WORK/growth.tsv"
  printf 'items\ttodo add\tsqlite3 INSERT\ttodo list\trows\tsqlite3 SELECT\tsearch 회의\tsearch meeting\n' > "$file"
  for size in "${sizes[@]}"; do
    home="$BENCH_HOMES/growth-$size"
    db="$home/memoapp.db"
    bench_notes_home "$home" "$size"
    rows=$("$bin" --home "$home" todo list | wc -l)
    bench_log "measuring at $size items ($BENCH_RUNS runs each)..."
    bench_rounds "g${size}_list" "$bin --home $home todo list" "g${size}_list_sqlite" "sqlite3 $db \"$BENCH_LIST_SQL\"" \
      "g${size}_search_ko" "$bin --home $home search 회의" "g${size}_search_en" "$bin --home $home search meeting" \
      "g${size}_add" "$bin --home $home todo add 'bench 할 일' --due tomorrow" \
      "g${size}_add_sqlite" "sqlite3 $db \"$BENCH_INSERT_SQL\""
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(echo "$size" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta')" \
      "$(bench_fmt "$(bench_median_ms "g${size}_add")" ms)" "$(bench_fmt "$(bench_median_ms "g${size}_add_sqlite")" ms)" \
      "$(bench_fmt "$(bench_median_ms "g${size}_list")" ms)" "$rows" \
      "$(bench_fmt "$(bench_median_ms "g${size}_list_sqlite")" ms)" \
      "$(bench_fmt "$(bench_median_ms "g${size}_search_ko")" ms)" "$(bench_fmt "$(bench_median_ms "g${size}_search_en")" ms)" \
      >> "$file"
    rm -rf "$home"
  done
}

# growth_print: the lines of section_growth, when it ran.
growth_print() {
  [ -s "$BENCH_WORK/growth.tsv" ] || return 0
  echo
  echo "how cost grows (medians; N to-dos and N memos; rows: open to-dos listed)"
  bench_align "1 2 3 4 5 6 7 8" < "$BENCH_WORK/growth.tsv"
}
