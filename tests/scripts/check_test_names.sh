#!/usr/bin/env bash
# Fails when a test case's name would break CMake's test discovery: catch_discover_tests passes the names as
# a CMake list, and an unbalanced '[' or ']' in one name makes CMake read every later name of that executable
# as part of it, so those tests silently stop being registered (they neither run nor fail); a ';' cuts a name
# in two, and the test registered under the first part matches nothing, runs nothing and passes.
#   tests/scripts/check_test_names.sh TEST_EXECUTABLE...
set -euo pipefail
status=0
for exe in "$@"; do
  while IFS= read -r name; do
    open=${name//[^\[]/} close=${name//[^\]]/}
    if [ ${#open} -ne ${#close} ]; then
      echo "$(basename "$exe"): test name with unbalanced brackets: \"$name\" (CMake's test discovery drops every" \
           "later test of this executable; reword it without '[' or ']')"
      status=1
    fi
    if [[ $name == *";"* ]]; then
      echo "$(basename "$exe"): test name with ';': \"$name\" (CMake's test discovery cuts it there and the test" \
           "it registers runs nothing; reword it without ';')"
      status=1
    fi
  done < <("$exe" --list-test-names-only)
done
exit $status
