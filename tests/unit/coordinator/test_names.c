/* test_names.c -- names kept once each at addresses that never move: an
 * equal string gives the same address, 100,000 distinct names (over many
 * blocks and table growths) each read back as written, a name longer than
 * a block is kept whole, NULL gives NULL, and the source may be freed. */
#include "analysis/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MANY 100000u

static void test_same_address(void)
{
	struct sc_names n;
	char *a = xstrdup("node-17"), *b = xstrdup("node-17");
	const char *ka, *kb;

	sc_names_init(&n);
	ka = sc_names_keep(&n, a);
	kb = sc_names_keep(&n, b);
	CHECK(ka && ka == kb && ka != a && !strcmp(ka, "node-17"), "equal names share a copy");
	memset(a, 'x', strlen(a));
	free(a);
	free(b);
	CHECK(!strcmp(ka, "node-17"), "the copy outlives its source");
	CHECK(sc_names_keep(&n, NULL) == NULL && n.n == 1, "NULL kept as NULL, %u name(s)", n.n);
	CHECK(sc_names_keep(&n, "") && !*sc_names_keep(&n, "") && n.n == 2, "the empty name");
	sc_names_exit(&n);
	CHECK(!n.slots && !n.block && !n.n, "exit leaves it empty");
}

static void test_many(void)
{
	const char **kept = xcalloc(MANY, sizeof(*kept));
	struct sc_names n;
	char buf[64];
	char *big = xcalloc(1, 200000);
	const char *kbig;
	uint32_t bad = 0;

	sc_names_init(&n);
	for (uint32_t i = 0; i < MANY; i++) {
		snprintf(buf, sizeof(buf), "host-%u.rack-%u", i, i % 97);
		kept[i] = sc_names_keep(&n, buf);
	}
	memset(big, 'b', 199999);
	kbig = sc_names_keep(&n, big);
	for (uint32_t i = 0; i < MANY; i++) {
		snprintf(buf, sizeof(buf), "host-%u.rack-%u", i, i % 97);
		bad += !kept[i] || strcmp(kept[i], buf) || sc_names_keep(&n, buf) != kept[i];
	}
	CHECK(bad == 0 && n.n == MANY + 1, "%u of %u names wrong; %u kept", bad, MANY, n.n);
	CHECK(kbig && strlen(kbig) == 199999 && kbig[0] == 'b' && kbig[199998] == 'b',
	      "a name longer than a block kept whole");
	sc_names_exit(&n);
	free(big);
	free(kept);
}

int main(void)
{
	test_same_address();
	test_many();
	return check_exit("test_names");
}
