/* test_throttle.c -- a throttled target's service queue (sc_throttle):
 * departures of known arrivals, sizes and rates against the FIFO single
 * server's closed forms (a burst departs every len / rate; an I/O arriving
 * at an idle server leaves len / rate after it; service times that do not
 * divide a nanosecond add up exactly; an fsync leaves with the I/O before
 * it), and Little's law for Q I/Os kept in flight: latency Q x len / rate,
 * throughput the rate. */
#include <stdint.h>

#include "check.h"
#include "pace.h"

#define NS_PER_S UINT64_C(1000000000)
#define KIB	 UINT64_C(1024)

/* 16 I/Os of 64 KiB submitted at once at 8 MB/s: I/O k (from 0) departs
 * (k + 1) x 8.192 ms after them, the 16th 131.072 ms after. */
static void check_burst(void)
{
	struct sc_throttle t;
	uint64_t t0 = 5 * NS_PER_S, s = 64 * KIB * NS_PER_S / 8000000;

	CHECK(s == 8192000, "64 KiB at 8 MB/s: %llu ns", (unsigned long long)s);
	sc_throttle_init(&t, 8000000);
	for (uint64_t k = 0; k < 16; k++) {
		uint64_t d = sc_throttle_admit(&t, t0, 64 * KIB);

		CHECK(d == t0 + (k + 1) * s, "I/O %llu departs at +%llu ns, want +%llu",
		      (unsigned long long)k, (unsigned long long)(d - t0),
		      (unsigned long long)((k + 1) * s));
	}
	CHECK(t.last_ns - t0 == 131072000, "the 16th at +%llu ns, want 131072000",
	      (unsigned long long)(t.last_ns - t0));
}

/* Arrivals into a busy server leave one service after the one before;
 * one into an idle server leaves one service after it arrives; sizes
 * differ (4 KiB and 1 MiB at 1 MiB/s: 3.90625 ms and 1 s). */
static void check_busy_and_idle(void)
{
	struct sc_throttle t;
	const uint64_t ms = 1000000, small = NS_PER_S / 256; /* 4 KiB at 1 MiB/s */
	struct {
		uint64_t at_ns, len, want_ns;
	} io[] = {
	    {0, 1024 * KIB, NS_PER_S},				       /* idle: 0 + 1 s */
	    {10 * ms, 4 * KIB, NS_PER_S + small},		       /* queued behind it */
	    {20 * ms, 1024 * KIB, 2 * NS_PER_S + small},	       /* behind both */
	    {3 * NS_PER_S, 4 * KIB, 3 * NS_PER_S + small},	       /* idle again */
	    {3 * NS_PER_S + small, 4 * KIB, 3 * NS_PER_S + 2 * small}, /* arrives as it leaves */
	};

	sc_throttle_init(&t, 1024 * KIB);
	for (size_t i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
		uint64_t d = sc_throttle_admit(&t, io[i].at_ns, io[i].len);

		CHECK(d == io[i].want_ns, "I/O %zu (%llu B at %llu ns) departs at %llu, want %llu",
		      i, (unsigned long long)io[i].len, (unsigned long long)io[i].at_ns,
		      (unsigned long long)d, (unsigned long long)io[i].want_ns);
	}
}

/* 1 byte at 3 B/s takes 333,333,333.3 ns: within a busy period I/O k
 * (from 1) departs floor(k x 1e9 / 3) ns after the period began, so a
 * second holds exactly 3 of them and nothing drifts over 3000. */
static void check_exact_sum(void)
{
	struct sc_throttle t;

	sc_throttle_init(&t, 3);
	for (uint64_t k = 1; k <= 3000; k++) {
		uint64_t d = sc_throttle_admit(&t, 0, 1), want = k * NS_PER_S / 3;

		if (d != want) {
			FAIL("1 B at 3 B/s: I/O %llu departs at %llu ns, want %llu",
			     (unsigned long long)k, (unsigned long long)d,
			     (unsigned long long)want);
			break;
		}
	}
	CHECK(t.last_ns == 1000 * NS_PER_S, "3000 B at 3 B/s: %llu ns, want 1000 s",
	      (unsigned long long)t.last_ns);
}

/* An fsync (0 bytes) takes no time but leaves no earlier than the I/O
 * before it; at an idle server it leaves as it arrives.  The largest I/O
 * (2 GiB) at 1 B/s does not overflow. */
static void check_fsync_and_range(void)
{
	struct sc_throttle t;
	uint64_t d;

	sc_throttle_init(&t, 1000);
	d = sc_throttle_admit(&t, 100, 500);
	CHECK(d == 100 + NS_PER_S / 2, "500 B at 1000 B/s: %llu", (unsigned long long)d);
	d = sc_throttle_admit(&t, 200, 0);
	CHECK(d == 100 + NS_PER_S / 2, "an fsync behind it leaves with it: %llu",
	      (unsigned long long)d);
	d = sc_throttle_admit(&t, 7 * NS_PER_S, 0);
	CHECK(d == 7 * NS_PER_S, "an fsync at an idle server leaves at once: %llu",
	      (unsigned long long)d);
	sc_throttle_init(&t, 1);
	d = sc_throttle_admit(&t, 1, UINT64_C(2) << 30);
	CHECK(d == 1 + (UINT64_C(2) << 30) * NS_PER_S, "2 GiB at 1 B/s: %llu",
	      (unsigned long long)d);
}

/* Q I/Os kept in flight, each resubmitted the instant one leaves (a
 * closed loop with no overhead): once the first Q have gone, every
 * latency is exactly Q x len / rate (Little's law: Q = throughput x
 * latency) and the server moves exactly rate bytes a second.  Q 1, 16, 64;
 * 64 KiB at 8 MB/s. */
static void check_little(uint32_t q)
{
	enum { N = 4000 };
	static uint64_t dep[N];
	struct sc_throttle t;
	uint64_t s = 8192000, t0 = 1000, lat;

	sc_throttle_init(&t, 8000000);
	for (uint32_t k = 0; k < N; k++) {
		uint64_t at = k < q ? t0 : dep[k - q];

		dep[k] = sc_throttle_admit(&t, at, 64 * KIB);
		lat = dep[k] - at;
		if (k >= q && lat != q * s) {
			FAIL("QD %u: I/O %u latency %llu ns, want %llu", q, k,
			     (unsigned long long)lat, (unsigned long long)(q * s));
			return;
		}
	}
	/* N I/Os in N services: 8 MB/s */
	CHECK(dep[N - 1] - t0 == (uint64_t)N * s, "QD %u: %u I/Os in %llu ns, want %llu", q, N,
	      (unsigned long long)(dep[N - 1] - t0), (unsigned long long)N * s);
}

int main(void)
{
	check_burst();
	check_busy_and_idle();
	check_exact_sum();
	check_fsync_and_range();
	check_little(1);
	check_little(16);
	check_little(64);
	return check_exit("test_throttle");
}
