package org.jhooks.bridgetest;

import java.util.List;
import org.jhooks.Hook;
import org.jhooks.python.PythonHooks;

/** A JVM app for the launcher test: prints its args and drives the Python hooks it is given. */
public final class HookApp {
  public static void main(String[] args) {
    System.out.println("args " + java.util.Arrays.toString(args));
    System.out.println("available " + PythonHooks.available());
    List<Hook> hooks = PythonHooks.fromCommandLine();
    System.out.println("hooks " + hooks);
    for (Hook h : hooks) {
      h.beginSession();
    }
    Hook loaded = PythonHooks.load("launcher_hooks:Greeter", "from java", 42, 2.5, true);
    loaded.beginSession();
    if (args.length > 0 && args[0].equals("--fail")) {
      PythonHooks.load("launcher_hooks:Exploding").beginSession();
    }
    System.out.flush();
  }
}
