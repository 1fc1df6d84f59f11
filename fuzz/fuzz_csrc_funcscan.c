/* libFuzzer target: the C function boundary scanner (csrc/funcscan.h) on any bytes.
 * Invariants: functions in file order, not overlapping, decl <= name <= body <= end, within
 * the file's lines; funcscan_at agrees with a linear search; funcscan_range counts exactly the
 * overlapping functions and reports a gap when a line with code is in no function. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csrc/funcscan.h"

static const struct funcscan_fn *linear_at(const struct funcscan *fs, unsigned line)
{
	for (size_t i = 0; i < fs->n; i++)
		if (fs->fn[i].decl_line <= line && line <= fs->fn[i].end_line)
			return &fs->fn[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct funcscan fs = {0};
	funcscan_scan(&fs, (const char *)data, size);
	unsigned lines = 1;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	for (size_t i = 0; i < fs.n; i++) {
		const struct funcscan_fn *f = &fs.fn[i];
		if (!(f->decl_line <= f->name_line && f->name_line <= f->body_line &&
		      f->body_line <= f->end_line && f->end_line <= lines && f->decl_line >= 1))
			abort();
		if (i > 0 && fs.fn[i - 1].end_line > f->decl_line) /* may share a line */
			abort();
		char buf[64];
		const char *sym[8];
		size_t ns = funcscan_symbols(f, buf, sizeof buf, sym, 8);
		for (size_t k = 0; k < ns; k++)
			if (sym[k] < buf || sym[k] + strlen(sym[k]) >= buf + sizeof buf)
				abort();
	}
	for (unsigned line = 0; line <= lines + 1; line++)
		if (funcscan_at(&fs, line) != linear_at(&fs, line))
			abort();
	for (unsigned first = 1; first <= lines && first < 64; first += 3) {
		unsigned last = first + 4;
		size_t idx[8], expect = 0;
		bool out, gap = false;
		for (size_t i = 0; i < fs.n; i++)
			expect += fs.fn[i].decl_line <= last && fs.fn[i].end_line >= first;
		for (unsigned l = first; l <= last; l++) /* outside: a code line in no function */
			gap |= linear_at(&fs, l) == NULL &&
			       (l > fs.nlines || (l < fs.ncode && fs.code[l]));
		if (funcscan_range(&fs, first, last, idx, 8, &out) != expect || out != gap)
			abort();
	}
	funcscan_free(&fs);
	return 0;
}
