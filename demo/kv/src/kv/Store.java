package kv;

import java.util.HashMap;
import java.util.Map;

import jx.domain.Domain;

/** The key-value service: a map guarded by its monitor (clients call from several threads). */
public final class Store implements KeyValue {
    private final Map<String, String> map = new HashMap<>();

    public synchronized void put(String key, String value) {
        map.put(key, value);
    }

    public synchronized String get(String key) {
        return map.get(key);
    }

    public synchronized int putAll(Map<String, String> entries) {
        map.putAll(entries);
        return map.size();
    }

    public String domainName() {
        return Domain.current().name();
    }
}
