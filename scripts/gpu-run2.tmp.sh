n=268435456
export WGSCAN_TEST_MAX_N=16777219
build/tests/test_select | tail -1
b() { env "$@" build/wgscan bench --series none --primitives select-flagged,select-if --min $n --max $n --json /dev/null --csv /dev/null --svg /dev/null 2>/dev/null | grep select; }
for cfg in "X=1" "WGSCAN_SELECT_PHASES=count" "WGSCAN_SELECT_PHASES=scatter" "WGSCAN_TUNE_SELECT=256,4" "WGSCAN_TUNE_SELECT=128,8" "WGSCAN_TUNE_SELECT=512,4" "WGSCAN_TUNE_SELECT=256,16"; do
  echo "== $cfg"; b $cfg
done
