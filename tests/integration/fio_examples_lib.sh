# fio_examples_lib.sh -- fio's own examples/ job files for the tests, from
# the source package of the fio Debian installed (deb.debian.org, its
# sha256 checked against the package's .dsc), kept in
# /var/tmp/sc-fio-examples-VERSION; SC_FIO_EXAMPLES=DIR uses DIR instead.
# Sourced after lib.sh (fail).

# sc_fio_examples : the examples/ folder's path on stdout, or fail.
sc_fio_examples() {
	if [ -n "${SC_FIO_EXAMPLES:-}" ]; then
		[ -f "$SC_FIO_EXAMPLES/ssd-test.fio" ] || fail "SC_FIO_EXAMPLES=$SC_FIO_EXAMPLES holds no ssd-test.fio"
		echo "$SC_FIO_EXAMPLES"
		return
	fi
	local ver up cache pool dsc tgz sum
	ver=$(dpkg-query -W -f='${Version}' fio 2>/dev/null) || fail "fio is not installed (scripts/setup.sh)"
	up=${ver#*:}
	up=${up%-*}
	cache=/var/tmp/sc-fio-examples-$up
	if [ -f "$cache/examples/ssd-test.fio" ]; then
		echo "$cache/examples"
		return
	fi
	pool=http://deb.debian.org/debian/pool/main/f/fio
	rm -rf "$cache.tmp"
	mkdir -p "$cache.tmp"
	dsc="$cache.tmp/fio_${ver#*:}.dsc"
	tgz="$cache.tmp/fio_$up.orig.tar.gz"
	curl -fsS --retry 3 -o "$dsc" "$pool/fio_${ver#*:}.dsc" ||
		fail "cannot download fio's Debian source description $pool/fio_${ver#*:}.dsc (set SC_FIO_EXAMPLES to fio's examples/)"
	curl -fsS --retry 3 -o "$tgz" "$pool/fio_$up.orig.tar.gz" ||
		fail "cannot download $pool/fio_$up.orig.tar.gz (set SC_FIO_EXAMPLES to fio's examples/)"
	sum=$(awk -v f="fio_$up.orig.tar.gz" '/^Checksums-Sha256:/ {s = 1; next} s && $3 == f {print $1; exit}' "$dsc")
	[ -n "$sum" ] || fail "$dsc names no sha256 of fio_$up.orig.tar.gz"
	echo "$sum  $tgz" | sha256sum -c --quiet - || fail "fio_$up.orig.tar.gz does not match its .dsc's sha256"
	tar -xzf "$tgz" -C "$cache.tmp" --wildcards --strip-components=1 "fio-$up/examples/*" ||
		fail "cannot unpack fio-$up/examples from $tgz"
	rm -f "$dsc" "$tgz"
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
	echo "$cache/examples"
}
