// Discount's header lives in the multiarch include directory on Debian
// (/usr/include/<triple>/mkdio.h), which the compiler searches by default.
#include <stdio.h>
#include <mkdio.h>
