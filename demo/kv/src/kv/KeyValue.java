package kv;

import java.util.Map;

import jx.portal.Portal;

/** A key-value store: a portal interface, so it can be called from other domains. */
public interface KeyValue extends Portal {
    void put(String key, String value);

    String get(String key);

    /** Stores every entry (the map is copied into the service's domain); returns the size. */
    int putAll(Map<String, String> entries);

    /** The name of the domain the service runs in. */
    String domainName();
}
