/* analyzer/model/paths.c — file names relative to the scanned tree (see
 * paths.h). */
#include "paths.h"

#include "facts.h"

#include <string.h>

const char *path_in_tree(const char *path, const char *root)
{
	size_t n;

	if (!path || !root)
		return NULL;
	n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n <= 1)
		return NULL;
	if (strncmp(path, root, n) == 0 && path[n] == '/' && path[n + 1])
		return path + n + 1;
	return NULL;
}

char *path_normalized(const char *path)
{
	size_t len = strlen(path);
	char *out = xmalloc(len + 2);
	size_t n = 0;          /* length of OUT so far */

	for (const char *p = path; *p; ) {
		const char *end = strchr(p, '/');
		size_t k = end ? (size_t)(end - p) : strlen(p);

		if (k == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;            /* drop the last part ... */
			if (n > 0)
				n--;            /* ... and its slash */
		} else if (k > 0 && !(k == 1 && p[0] == '.')) {
			out[n++] = '/';
			memcpy(out + n, p, k);
			n += k;
		}
		p += k + (end != NULL);
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}
