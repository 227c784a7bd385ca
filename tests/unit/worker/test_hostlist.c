/* test_hostlist.c -- host patterns: ranges, padding, lists, globs, errors. */
#include "check.h"
#include "hostlist.h"

static void expect(const char *pattern, const char *host, int want)
{
	int got = sc_hostlist_match(pattern, host);

	CHECK(got == want, "\"%s\" vs %s: got %d, want %d", pattern, host, got, want);
}

static void expect_bad(const char *pattern, const char *why)
{
	char err[256] = "";
	int rc = sc_hostlist_check(pattern, err, sizeof(err));

	CHECK(rc != 0, "\"%s\" accepted, want an error", pattern);
	CHECK(rc == 0 || strstr(err, why), "\"%s\": message \"%s\" lacks \"%s\"", pattern, err, why);
}

int main(void)
{
	char err[256];

	/* zero-padded ranges fix the width */
	expect("gpu[01-16]", "gpu01", 1);
	expect("gpu[01-16]", "gpu16", 1);
	expect("gpu[01-16]", "gpu09", 1);
	expect("gpu[01-16]", "gpu17", 0);
	expect("gpu[01-16]", "gpu00", 0);
	expect("gpu[01-16]", "gpu1", 0);
	expect("gpu[01-16]", "gpu010", 0);
	/* unpadded ranges take no leading zero */
	expect("node[1-12]", "node1", 1);
	expect("node[1-12]", "node12", 1);
	expect("node[1-12]", "node01", 0);
	expect("node[1-12]", "node13", 0);
	/* lists inside and outside brackets */
	expect("node[1-4,8]", "node8", 1);
	expect("node[1-4,8]", "node6", 0);
	expect("a,b,c[1-2]", "b", 1);
	expect("a,b,c[1-2]", "c2", 1);
	expect("a,b,c[1-2]", "ab", 0);
	/* ranges followed by more pattern, globs, classes */
	expect("rack[1-2]-gpu*", "rack2-gpu07", 1);
	expect("rack[1-2]-gpu*", "rack3-gpu07", 0);
	expect("schost*", "schost3", 1);
	expect("s?ost1", "schost1", 0);
	expect("sc?ost1", "schost1", 1);
	expect("sch?st1", "schost1", 1);
	expect("host[abc]", "hostb", 1);
	expect("host[!abc]", "hostb", 0);
	expect("host[a-c]", "hostc", 1);
	expect("*", "anything", 1);
	expect("gpu01", "gpu01", 1);
	expect("gpu01", "gpu011", 0);
	/* a range can be greedy or not: gpu1 + 2-more-digits */
	expect("gpu[1-20]0", "gpu100", 1);
	expect("gpu[1-20]0", "gpu200", 1);

	CHECK(sc_hostlist_check("gpu[01-16],login*,node[1-4,8]", err, sizeof(err)) == 0,
	      "good pattern refused: %s", err);
	expect_bad("gpu[01-16", "unclosed");
	expect_bad("gpu[]", "empty");
	expect_bad("gpu[16-01]", "backwards");
	expect_bad("a,,b", "empty item");
	expect_bad("", "empty host list");
	expect_bad("gpu]", "without");
	expect_bad("gpu[1--3]", "bad range");

	return check_exit("test_hostlist");
}
