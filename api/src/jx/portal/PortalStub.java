package jx.portal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/**
 * The invocation handler of a portal: names a service of another domain by the VM's id and
 * forwards every call to it. Made by the VM only.
 */
final class PortalStub implements InvocationHandler {
    private final long service;

    private PortalStub(long service) {
        this.service = service;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "Portal[" + service + "]";
                default:
                    break;
            }
        }
        return call(service, method, args);
    }

    private static native Object call(long service, Method method, Object[] args) throws Throwable;
}
