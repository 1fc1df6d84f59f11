/* Wall-clock milliseconds and sleeping, for retry back-off and waits measured against times
 * written to disk (which is why the clock is the real-time one, not the monotonic one). */
#ifndef KCVE_CORE_CLOCK_H
#define KCVE_CORE_CLOCK_H

/* Milliseconds since the epoch. */
long long clock_now_ms(void);
/* Sleep ms milliseconds (nothing for ms <= 0), resuming after signals. */
void clock_sleep_ms(long long ms);

#endif
