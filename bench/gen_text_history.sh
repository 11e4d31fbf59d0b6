#!/bin/sh
# gen_text_history.sh TXNS OPS_PER_TXN SESSIONS KEYS [SEED] > history.txt
# A synthetic PolySI text history for load-time/memory measurements: each
# op reads (50%) the last value written to a random key, or writes a fresh
# unique value.  Transactions are spread round-robin over the sessions.
txns=${1:-1000000}; ops=${2:-15}; sessions=${3:-100}; keys=${4:-100000}; seed=${5:-1}
exec awk -v txns="$txns" -v ops="$ops" -v sessions="$sessions" -v keys="$keys" -v seed="$seed" 'BEGIN {
  srand(seed); next_value = 1
  for (t = 1; t <= txns; t++) {
    s = t % sessions
    for (i = 0; i < ops; i++) {
      k = int(rand() * keys)
      if (rand() < 0.5) printf "r(%d,%d,%d,%d)\n", k, (k in last) ? last[k] : 0, s, t
      else { last[k] = next_value; printf "w(%d,%d,%d,%d)\n", k, next_value++, s, t }
    }
  }
}'
