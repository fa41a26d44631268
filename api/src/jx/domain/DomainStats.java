package jx.domain;

/**
 * A domain's resource use: heap bytes in use and its limit, CPU time used by its threads, the
 * threads alive now and the collections run so far. A limit of 0 means none.
 */
public record DomainStats(long heapUsed, long heapLimit, long cpuTimeNanos, int liveThreads, long collections) {}
