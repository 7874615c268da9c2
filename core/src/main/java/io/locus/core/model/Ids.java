package io.locus.core.model;

import java.util.Comparator;

/**
 * The order behind every "lowest id" tie-break: natural order, digit runs compared as numbers, so
 * "n2" &lt; "n10" and "f9" &lt; "f10" whether or not ids are zero-padded. Plain string order breaks
 * the remaining ties ("01" vs "1"), so the order is total and consistent with equals.
 */
public final class Ids {
  public static final Comparator<String> ORDER = Ids::compare;

  private Ids() {}

  public static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (digit(ca) && digit(cb)) {
        int ei = i;
        while (ei < a.length() && digit(a.charAt(ei))) {
          ei++;
        }
        int ej = j;
        while (ej < b.length() && digit(b.charAt(ej))) {
          ej++;
        }
        int si = i;
        while (si < ei - 1 && a.charAt(si) == '0') {
          si++;
        }
        int sj = j;
        while (sj < ej - 1 && b.charAt(sj) == '0') {
          sj++;
        }
        if (ei - si != ej - sj) {
          return Integer.compare(ei - si, ej - sj);
        }
        for (int k = 0; k < ei - si; k++) {
          int c = Character.compare(a.charAt(si + k), b.charAt(sj + k));
          if (c != 0) {
            return c;
          }
        }
        i = ei;
        j = ej;
      } else {
        if (ca != cb) {
          return Character.compare(ca, cb);
        }
        i++;
        j++;
      }
    }
    int rest = Integer.compare(a.length() - i, b.length() - j);
    return rest != 0 ? rest : a.compareTo(b);
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }
}
