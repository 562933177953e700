# Sourced by scripts/setup.sh and scripts/peers/install.sh: install Debian packages pinned by version prefix.
# `apt_by_prefix NAME=PREFIX ...` installs each NAME whose installed version does not start with PREFIX (the
# candidate must), then checks the installed version again. Prefix pins (e.g. `5.3.`) survive Debian's
# security point releases, which exact pins do not. Needs `log`, `die` and `as_root` from the caller.
apt_by_prefix() {
  local spec name prefix have cand missing=()
  for spec in "$@"; do
    name="${spec%%=*}"; prefix="${spec#*=}"
    have="$(dpkg-query -W -f='${db:Status-Abbrev}${Version}' "$name" 2>/dev/null || true)"
    [[ "$have" == "ii $prefix"* ]] || missing+=("$name")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  as_root apt-get update -qq
  for name in "${missing[@]}"; do
    for spec in "$@"; do [ "${spec%%=*}" = "$name" ] && prefix="${spec#*=}"; done
    cand="$(apt-cache policy "$name" | awk '/Candidate:/ {print $2}')"
    [[ "$cand" == "$prefix"* ]] || die "Debian offers $name $cand, this project pins $prefix*"
  done
  log "installing Debian packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  for spec in "$@"; do
    name="${spec%%=*}"; prefix="${spec#*=}"
    have="$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || true)"
    [[ "$have" == "$prefix"* ]] || die "$name $have installed, expected $prefix*"
  done
}
