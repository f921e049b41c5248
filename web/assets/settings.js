// Display settings kept per browser (localStorage): high contrast, large font, screen-reader
// mode, local echo, and the play view's times beside lines and alerts on one's name. The
// display ones apply as classes on <html> so CSS does the rest.

const KEY = "ursamu.settings";
const DEFAULTS = {
  contrast: false,
  large: false,
  reader: false,
  echo: true,
  times: false,
  mentions: false,
};

/** The current settings. */
export function getSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) ?? "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Changes one setting, keeps it and applies it. */
export function setSetting(name, value) {
  const s = { ...getSettings(), [name]: Boolean(value) };
  localStorage.setItem(KEY, JSON.stringify(s));
  applySettings(s);
  document.dispatchEvent(new CustomEvent("ursamu:settings", { detail: s }));
  return s;
}

/** Puts the settings' classes on the document. */
export function applySettings(s = getSettings()) {
  const root = document.documentElement;
  root.classList.toggle("contrast", s.contrast);
  root.classList.toggle("large", s.large);
  root.classList.toggle("reader", s.reader);
  root.classList.toggle("times", s.times);
}
