# Sourced by scripts/demo.sh and scripts/test.sh: installing the Debian packages they need.

# The packages every build needs: the C libraries' development files (SQLite, libpq,
# libmicrohttpd, each a system library target) and pkg-config, which finds libpq's headers.
build_packages=(libsqlite3-dev libpq-dev libmicrohttpd-dev pkg-config)

# ensure_packages PACKAGE... : installs those of the Debian packages not installed yet, as
# root; as another user, names the missing ones and exits 1.
ensure_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "missing Debian packages: ${missing[*]} (run as root, or install them with apt-get)" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
