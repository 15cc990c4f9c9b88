/* placeholder: being written */
#include <stdio.h>
int main(void) { puts("FAIL: not written yet"); return 1; }
