/* version.h — the one version of isocheck, gsat and their libraries
 * (`isocheck --version`, `gsat --version`; the Makefile reads the shared
 * libraries' version from here). */
#ifndef ISOCHECK_VERSION_H
#define ISOCHECK_VERSION_H

#define ISOCHECK_VERSION "1.0.0"

#endif
