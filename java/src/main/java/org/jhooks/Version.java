package org.jhooks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The jhooks version, twin of {@code jhooks.api.version.VERSION} ({@code jhooks.__version__}). Both
 * come from one line, {@code VERSION = "..."} in {@code jhooks/api/version.py}: the build writes it
 * into {@code org/jhooks/version.properties}, the jar manifest ({@code Implementation-Version}) and
 * the POM. {@code java -cp jhooks.jar org.jhooks.Version} prints it.
 */
public final class Version {
  /** The version, e.g. {@code "0.1.0"}. */
  public static final String VERSION = read();

  private Version() {}

  private static String read() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException(
            "org/jhooks/version.properties is missing: the jhooks classes were not built by"
                + " Gradle");
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Prints {@link #VERSION}. */
  public static void main(String[] args) {
    System.out.println(VERSION);
  }
}
