/* kcve's one clock.
 *
 * - clock_now(): "now" for every decision that depends on the date (supported branches and
 *   EOL, staleness, rejection and dispute dates, mail dates). $KCVE_NOW fixes it (a test hook,
 *   core/testhooks.h); otherwise the real-time clock.
 * - clock_stamp(): the time written into generated documents (OpenVEX timestamps, a db's build
 *   time). $SOURCE_DATE_EPOCH fixes it (reproducible builds); otherwise clock_now().
 * - clock_real(): the real clock in seconds, never overridden: for what must differ between
 *   runs (minted Message-Ids and their Date:) and for network waits (Retry-After dates).
 * - clock_now_ms()/clock_sleep_ms(): retry back-off and waits measured against times written to
 *   disk (which is why the clock is the real-time one, not the monotonic one); never overridden.
 *
 * Both variables are read once, on the first call of clock_init() (kcve's main calls it before
 * any command runs; the other functions call it too). A value must be decimal seconds since
 * 1970-01-01T00:00:00Z with no sign, spaces or suffix, at most CLOCK_MAX_SECONDS
 * (9999-12-31T23:59:59Z), so that every timestamp kcve writes has a four-digit year.
 * Anything else ("abc", "-5", "9223372036854775807") is refused by clock_init() with one
 * message and KCVE_E_USAGE: an error returned at start-up, which kcve's main reports as one
 * line and exit code 2 for every command alike, and kcve_records_open() returns to the caller
 * of the public API. The clock never exits: clock_now()/clock_stamp() after a refused
 * variable treat it as unset. An empty value counts as unset. */
#ifndef KCVE_CORE_CLOCK_H
#define KCVE_CORE_CLOCK_H

#include "core/error.h"

/* 9999-12-31T23:59:59Z */
#define CLOCK_MAX_SECONDS 253402300799LL

/* Read $KCVE_NOW and $SOURCE_DATE_EPOCH (once); 0, or KCVE_E_USAGE and the message in err. */
int clock_init(struct kcve_err *err);
/* Seconds since the epoch (see above: a variable clock_init() refused counts as unset). */
long long clock_now(void);
long long clock_stamp(void);
/* Parse seconds as the variables are parsed (what names the input in the message). */
int clock_parse_seconds(const char *what, const char *text, long long *out, struct kcve_err *err);
/* Seconds since the epoch (the real clock, never overridden). */
long long clock_real(void);
/* Milliseconds since the epoch (the real clock, never overridden). */
long long clock_now_ms(void);
/* Sleep ms milliseconds (nothing for ms <= 0), resuming after signals. */
void clock_sleep_ms(long long ms);

#endif
