/* Fuzz the commit-message trailer parser the indexer runs on every commit, and the .dyad
 * text parser/formatter (round trip: formatting parsed pairs and parsing again is stable). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "history/dyad_text.h"
#include "history/trailers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *msg = malloc(size + 1);
	if (!msg)
		return 0;
	memcpy(msg, data, size);
	msg[size] = '\0';
	struct trailers t;
	trailers_parse(msg, size, size & 1, &t);
	for (size_t i = 0; i < t.nfixes; i++)
		if (t.fixes[i].p < msg || t.fixes[i].p + t.fixes[i].len > msg + size || t.fixes[i].len < 7)
			abort();
	if ((t.upstream[0] && strlen(t.upstream) != 40) || (t.reverts[0] && strlen(t.reverts) != 40))
		abort();

	struct dyad_list l, l2;
	dyad_list_init(&l);
	dyad_list_init(&l2);
	dyad_parse(msg, &l);
	struct strbuf sb = STRBUF_INIT, sb2 = STRBUF_INIT;
	dyad_format_pairs(&l, &sb);
	dyad_parse(sb_str(&sb), &l2);
	dyad_format_pairs(&l2, &sb2);
	if (strcmp(sb_str(&sb), sb_str(&sb2)) != 0)
		abort();
	sb_release(&sb);
	sb_release(&sb2);
	dyad_list_release(&l);
	dyad_list_release(&l2);
	free(msg);
	return 0;
}
