/* Experiment only: makes the CLI's mallopt a no-op so MALLOC_MMAP_THRESHOLD_ decides. */
int mallopt(int param, int value) { (void)param; (void)value; return 1; }
