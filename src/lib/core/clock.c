#include "core/clock.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/assert.h"
#include "core/testhooks.h"

int clock_parse_seconds(const char *what, const char *text, long long *out, struct kcve_err *err)
{
	long long v = 0;
	size_t n = strlen(text);
	bool ok = n > 0 && n <= 12;
	for (size_t i = 0; ok && i < n; i++) {
		ok = text[i] >= '0' && text[i] <= '9';
		v = v * 10 + (text[i] - '0');
	}
	if (!ok || v > CLOCK_MAX_SECONDS) {
		char shown[41]; /* the value as typed, control characters neutralised */
		size_t k = 0;
		for (; k + 1 < sizeof shown && text[k]; k++)
			shown[k] = text[k] >= 0x20 && text[k] < 0x7f ? text[k] : '?';
		shown[k] = '\0';
		return kcve_err_set(err, KCVE_E_USAGE,
				    "%s='%s' is not a time between 1970 and 9999 (decimal seconds since "
				    "1970-01-01 UTC, at most %lld); unset it or give such a number",
				    what, shown, CLOCK_MAX_SECONDS);
	}
	KCVE_ASSERT(v >= 0 && v <= CLOCK_MAX_SECONDS);
	*out = v;
	return 0;
}

static struct {
	pthread_once_t once;
	struct kcve_err err;
	bool have_now, have_stamp;
	long long now, stamp;
} g_clock = {PTHREAD_ONCE_INIT, {0, ""}, false, false, 0, 0};

static bool read_var(const char *name, long long *out)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return false;
	struct kcve_err e = {0};
	if (clock_parse_seconds(name, v, out, &e) == 0)
		return true;
	if (!g_clock.err.code) /* the first refused variable is the one reported */
		g_clock.err = e;
	return false;
}

static void clock_read_env(void)
{
	g_clock.have_now = read_var(KCVE_HOOK_NOW, &g_clock.now);
	g_clock.have_stamp = read_var(KCVE_ENV_SOURCE_DATE_EPOCH, &g_clock.stamp);
}

int clock_init(struct kcve_err *err)
{
	pthread_once(&g_clock.once, clock_read_env);
	if (g_clock.err.code && err)
		*err = g_clock.err;
	return g_clock.err.code;
}

/* Every entry point (kcve's main, kcve_records_open) calls clock_init() first and stops on its
 * error, so a refused variable never gets here; should an internal caller forget, the refused
 * value is not used (it counts as unset) and nothing exits. */
long long clock_now(void)
{
	clock_init(NULL);
	return g_clock.have_now ? g_clock.now : clock_real();
}

long long clock_stamp(void)
{
	clock_init(NULL);
	return g_clock.have_stamp ? g_clock.stamp : clock_now();
}

long long clock_real(void)
{
	return (long long)time(NULL);
}

long long clock_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void clock_sleep_ms(long long ms)
{
	if (ms <= 0)
		return;
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0)
		;
}
