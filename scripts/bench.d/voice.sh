# shellcheck shell=bash
# The voice rows of scripts/bench (speed and memory of voice memos), on generated
# audio that is never committed: one hour of 44.1 kHz mono 16-bit pink noise as
# WAV (~318 MB) and as FLAC, and the same for ten minutes (--quick: twenty
# minutes and ten).
#   voice import  no slower than `sox FILE -n stat` on the same file, and within
#                 2x of a plain C loop of sf_readf_float (the libsndfile floor);
#                 every import goes into a fresh data home, so none is a duplicate
#   max RSS       of an import, under 40 MB, and flat in the file's length: the
#                 long file's within 5 MB of the short file's
#   voice peaks   under 50 ms on the long memo, with the default and other scales
# Sourced by scripts/bench after lib.sh.

# voice_make_audio SECONDS NAME: NAME.wav and NAME.flac in the work folder.
voice_make_audio() {
  local dir="$BENCH_WORK/audio"
  mkdir -p "$dir"
  [ -f "$dir/$2.wav" ] || sox -n -r 44100 -c 1 -b 16 "$dir/$2.wav" synth "$1" pinknoise vol 0.5
  [ -f "$dir/$2.flac" ] || sox "$dir/$2.wav" "$dir/$2.flac"
}

# voice_make_floor: the libsndfile floor, a C loop that decodes every frame as
# float and nothing else, compiled here against the same libsndfile.
voice_make_floor() {
  cat > "$BENCH_WORK/floor.c" <<'C'
#include <sndfile.h>
#include <stdio.h>
/* The libsndfile floor: decode every frame as float, nothing else. */
int main(int argc, char **argv) {
    SF_INFO info = {0};
    SNDFILE *file = sf_open(argv[1], SFM_READ, &info);
    if (!file) { fprintf(stderr, "%s\n", sf_strerror(NULL)); return 1; }
    static float buffer[8192 * 8];
    sf_count_t total = 0, count;
    while ((count = sf_readf_float(file, buffer, 8192)) > 0) total += count;
    sf_close(file);
    return total > 0 ? 0 : 1;
}
C
  # shellcheck disable=SC2046  # pkg-config's flags are words
  cc -O2 -o "$BENCH_WORK/floor" "$BENCH_WORK/floor.c" $(pkg-config --cflags --libs sndfile)
}

section_voice() {
  bench_need sox cc pkg-config /usr/bin/time
  "$BENCH_BIN" voice --help >/dev/null 2>&1 || bench_die "this memoapp has no voice commands"
  local long=3600 short=600 long_name="1 h" short_name="10 min" import_runs=5
  # --quick keeps the ten-minute file as the short one: memory is judged flat
  # from ten minutes on, and below that an import's buffers still grow.
  if [ "$BENCH_QUICK" -eq 1 ]; then long=1200 long_name="20 min" import_runs=3; fi
  bench_log "making $long_name and $short_name of audio (WAV and FLAC)..."
  voice_make_audio "$long" long
  voice_make_audio "$short" short
  voice_make_floor

  # Every import starts from an empty data home: the same bytes imported twice
  # would be refused as a duplicate, and the library must not fill the disk.
  local home="$BENCH_HOMES/voice" bin="$BENCH_BIN"
  cat > "$BENCH_WORK/fresh-voice-home" <<SH
#!/bin/sh
rm -rf '$home' && exec '$bin' --home '$home' onboard skip >/dev/null
SH
  chmod +x "$BENCH_WORK/fresh-voice-home"

  local kind file upper import
  for kind in wav flac; do
    file="$BENCH_WORK/audio/long.$kind"
    upper=${kind^^}
    bench_log "measuring voice import of $long_name of $upper against sox and the C loop..."
    # One run of each per round, no warm-up: the file was just written, so the
    # page cache holds it for all three. The fresh home comes before sox and the
    # C loop too: untimed, and it keeps the three alike.
    BENCH_ROUNDS=$import_runs BENCH_BATCH=1 BENCH_WARMUP=0 BENCH_PREPARE="$BENCH_WORK/fresh-voice-home" \
      bench_rounds "import_$kind" "$bin --home $home voice import $file" \
      "sox_$kind" "sox $file -n stat" "floor_$kind" "$BENCH_WORK/floor $file"
    import=$(bench_median_ms "import_$kind")
    bench_compare "voice import $long_name $upper" "$import" "sox -n stat" "$(bench_median_ms "sox_$kind")" ms 1
    bench_compare "voice import $long_name $upper" "$import" "C sf_readf_float" "$(bench_median_ms "floor_$kind")" ms 2 \
      "$(du -h "$file" | cut -f1)"
  done

  local rss_long rss_short rss_sox result
  for kind in wav flac; do
    upper=${kind^^}
    "$BENCH_WORK/fresh-voice-home"
    rss_long=$(bench_max_rss_mb "$bin" --home "$home" voice import "$BENCH_WORK/audio/long.$kind")
    "$BENCH_WORK/fresh-voice-home"
    rss_short=$(bench_max_rss_mb "$bin" --home "$home" voice import "$BENCH_WORK/audio/short.$kind")
    rss_sox=$(bench_max_rss_mb sox "$BENCH_WORK/audio/long.$kind" -n stat)
    result=$(awk -v a="$rss_long" -v b="$rss_short" 'BEGIN { d = a - b; if (d < 0) d = -d
      print (a < 40 && b < 40 && d < 5) ? "ok" : "MISS" }')
    bench_judged "voice import $long_name $upper, max RSS" "$rss_long MB" "same, $short_name" "$rss_short MB" \
      "$(awk -v a="$rss_long" -v b="$rss_short" 'BEGIN { printf "%.2fx", a / b }')" "< 40 MB, flat" "$result" \
      "flat: within 5 MB of the $short_name file; sox -n stat: $rss_sox MB"
  done

  bench_log "measuring voice peaks on the $long_name memo..."
  "$BENCH_WORK/fresh-voice-home"
  "$bin" --home "$home" voice import "$BENCH_WORK/audio/long.wav" >/dev/null
  local options name
  for options in "" "--width 1000" "--samples-per-pixel 44100 --bits 8"; do
    name="peaks_$(echo "$options" | tr -c 'a-z0-9' _)"
    bench_rounds "$name" "$bin --home $home voice peaks 1 $options"
    bench_limit "voice peaks $long_name" "$(bench_median_ms "$name")" ms "<" 50 "${options:-default (256 samples per pixel)}"
  done
}
