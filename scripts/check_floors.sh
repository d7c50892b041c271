#!/usr/bin/env bash
# Checks that folders follow floors (DESIGN.md §2): the #include lines of the source tree against two rules.
#   1. core-floor: a file of the core floors does not include a file of an upper floor.
#      core:  keras/tensor* keras/storage* keras/variable* keras/keras_tensor* keras/errors.hpp
#             keras/kernels/ keras/ops/ keras/autodiff/ keras/layer.* keras/model.* keras/sequential.*
#             keras/functional_graph* keras/initializers/ keras/regularizers/ keras/constraints/
#             keras/activations.* keras/hdf5/ keras/profiler/ keras/function/
#      upper: callbacks/ data/ datasets/ losses/ metrics/ optimizers/ keras/trainers/
#             keras/saving/
#   2. onednn-in-kernels: only keras/kernels/ includes oneDNN (any include whose path mentions "dnnl").
# Only direct includes count. A quoted include is resolved against the including file's folder first, as
# the compiler does, then against the root.
#
#   scripts/check_floors.sh [ROOT]     ROOT defaults to this repository
#
# Every violation is printed as "file:line: includes X: rule: explanation". Exit status 0 when clean, 1 otherwise.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root"

# The folders whose sources are checked (the library, and for rule 2 everything that is compiled).
source_dirs=(keras layers losses metrics optimizers callbacks datasets data tests tools bench examples fuzz)

is_core() {
  case $1 in
    keras/tensor* | keras/storage* | keras/variable* | keras/keras_tensor* | keras/errors.hpp) return 0 ;;
    keras/kernels/* | keras/ops/* | keras/autodiff/*) return 0 ;;
    keras/layer.* | keras/model.* | keras/sequential.* | keras/functional_graph*) return 0 ;;
    keras/initializers/* | keras/regularizers/* | keras/constraints/* | keras/activations.*) return 0 ;;
    keras/hdf5/* | keras/profiler/* | keras/function/*) return 0 ;;
  esac
  return 1
}

is_upper() {
  case $1 in
    callbacks/* | data/* | datasets/* | losses/* | metrics/* | optimizers/*) return 0 ;;
    keras/trainers/* | keras/saving/*) return 0 ;;
  esac
  return 1
}

# "a/b/../c/./d.hpp" -> "a/c/d.hpp"
normalize() {
  local -a parts=() out=()
  local p
  IFS=/ read -ra parts <<<"$1"
  for p in "${parts[@]}"; do
    case $p in
      '' | .) ;;
      ..) [ ${#out[@]} -gt 0 ] && unset 'out[-1]' ;;
      *) out+=("$p") ;;
    esac
  done
  (IFS=/; echo "${out[*]}")
}

dirs=()
for d in "${source_dirs[@]}"; do [ -d "$d" ] && dirs+=("$d"); done
failures=0
report() {  # file line include rule explanation
  local shown=$3
  [ "$target" != "$3" ] && shown="$3 (that is, $target)"
  failures=$((failures + 1))
  echo "error: $1:$2: includes $shown: rule $4: $5" >&2
}

include_re='include[[:space:]]*([<"])([^>"]+)[>"]'
# file:line:#include <x> or "x", for every C++ source and header below the source folders.
while IFS= read -r hit; do
  file=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  directive=${rest#*:}
  if [[ $directive =~ $include_re ]]; then
    quote=${BASH_REMATCH[1]}
    inc=${BASH_REMATCH[2]}
  else
    continue
  fi
  target=$inc
  if [ "$quote" = '"' ] && [ -e "$(dirname "$file")/$inc" ]; then
    target=$(normalize "$(dirname "$file")/$inc")
  elif [[ $inc == ./* || $inc == ../* || $inc == */./* || $inc == */../* ]]; then
    target=$(normalize "$inc")
  fi
  if is_core "$file" && is_upper "$target"; then
    floor=${target%%/*}/
    [ "$floor" = keras/ ] && { floor=${target#keras/}; floor=keras/${floor%%/*}/; }
    report "$file" "$line" "$inc" core-floor \
      "a core-floor file must not include the upper floor $floor"
  fi
  if [[ $target == *dnnl* && $file != keras/kernels/* ]]; then
    report "$file" "$line" "$inc" onednn-in-kernels "only keras/kernels/ may include oneDNN"
  fi
done < <(find "${dirs[@]}" -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.h' -o -name '*.cc' -o -name '*.ipp' \) \
           -not -path '*/golden/*' -print0 | sort -z |
         xargs -0 -r grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' || true)

if [ $failures -gt 0 ]; then
  echo "check_floors: FAILED: $failures violation(s). Rules: the README's Architecture section and the head of" \
       "scripts/check_floors.sh." >&2
  exit 1
fi
echo "check_floors: OK"
