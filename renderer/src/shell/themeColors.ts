/**
 * The primary blue is too dark for text on the dark background (under WCAG AA's 4.5:1): text
 * that would be primary blue (the active tab) takes this lighter blue in the dark theme.
 */
export const PRIMARY_TEXT_DARK = '#7aa5f8'
