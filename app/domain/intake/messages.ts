/**
 * The intake's messages that do not say which field they are about: the step's top alert puts the
 * field's label before them ("Facebook: Invalid URL format"). Every other message is written for its
 * field and stands alone ("Please enter your trading name"), so the alert never names a field twice
 * in two ways ("Trading name: Business name is required"). Plain strings: the
 * schemas (server) and the alert (browser) both read them.
 */
export const GENERIC_MESSAGES = {
  tooLong: (max: number) => `Must be ${max} characters or fewer`,
  atMost: (max: number, items: string) => `At most ${max} ${items}`,
  invalidUrl: "Invalid URL format",
  invalidEmail: "Invalid email address",
  date: "Please enter a date",
  choose: "Please choose one of the options",
  rating: "Rating must be 1 to 5",
} as const;

const GENERIC = [
  /^Must be \d+ characters or fewer$/,
  /^At most \d+ /,
  GENERIC_MESSAGES.invalidUrl,
  GENERIC_MESSAGES.invalidEmail,
  GENERIC_MESSAGES.date,
  GENERIC_MESSAGES.choose,
  GENERIC_MESSAGES.rating,
];

/** Whether a message needs its field's label before it to say what it is about. */
export const isGenericMessage = (message: string) =>
  GENERIC.some((g) => (typeof g === "string" ? g === message : g.test(message)));
