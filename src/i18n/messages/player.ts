import { defineArea } from '../define.js';
import { FSI, PDI } from '../format.js';

/**
 * What the player's error codes mean and what support does about each (`/vidops explain`,
 * `vidops explain`), keyed by the entry's first code. The English side is the core's table
 * (src/core/player-errors.ts) word for word; a test keeps the two equal.
 * @see docs/architecture.md, "Languages"
 */

/** A fixed left-to-right token inside Persian text. */
const iso = (token: string): string => `${FSI}${token}${PDI}`;

export const player = defineArea(
  {
    playerError9999Meaning: 'Unexpected error in the player.',
    playerError9999Fix: 'Escalate to the service with the time, the file and the viewer.',
    playerError9910Meaning: 'The viewer was blocked for suspicious behaviour.',
    playerError9910Fix: 'Unblock the viewer by mobile number.',
    playerError9199Meaning: 'The link has expired.',
    playerError9199Fix: 'The viewer reloads the page to get a new link.',
    playerError9196Meaning: 'The browser cannot play the higher quality.',
    playerError9196Fix: 'The viewer tries another browser.',
    playerError9195Meaning: 'A VPN is on, or the link was shared.',
    playerError9195Fix: 'The viewer turns off the VPN and does not share links.',
    playerError9150Meaning: 'Another device is using the account.',
    playerError9150Fix: 'The viewer closes the other session.',
    playerError9104Meaning: 'The file is still being processed.',
    playerError9104Fix: 'Wait for the conversion to finish.',
    playerError9103Meaning: 'Processing of the file failed.',
    playerError9103Fix: 'Retry the conversion of the file.',
    playerError9102Meaning: 'The account is suspended and needs a top-up.',
    playerError9102Fix: 'The account owner tops up the account.',
    playerError9101Meaning: 'Conversion of the file failed.',
    playerError9101Fix: 'Retry the conversion; if it fails again, re-upload the file.',
    playerError2001Meaning: 'An incompatible browser extension is active.',
    playerError2001Fix: 'The viewer disables browser extensions.',
    playerError1466Meaning: 'The page zoom is not at 100%.',
    playerError1466Fix: 'The viewer resets the zoom to 100% (Ctrl+0).',
    playerError1457Meaning: 'The link is not valid.',
    playerError1457Fix: 'The viewer gets a new link.',
    playerError1014Meaning: 'The connection was lost.',
    playerError1014Fix: 'The viewer checks their internet connection.',
    playerError8001Meaning: 'A playback, network or browser problem.',
    playerError8001Fix: 'The viewer tries another browser or network.',
    playerError7443Meaning: 'A download extension (e.g. IDM) or a theme changer is active.',
    playerError7443Fix: 'The viewer disables it.',
  },
  {
    playerError9999Meaning: 'خطای پیش‌بینی‌نشده در پلیر.',
    playerError9999Fix: 'با ذکر زمان، فایل و بیننده به سرویس گزارش دهید.',
    playerError9910Meaning: 'بیننده به‌خاطر رفتار مشکوک مسدود شده است.',
    playerError9910Fix: 'مسدودی بیننده را با شماره‌ی موبایلش بردارید.',
    playerError9199Meaning: 'لینک منقضی شده است.',
    playerError9199Fix: 'بیننده صفحه را دوباره بارگذاری کند تا لینک تازه بگیرد.',
    playerError9196Meaning: 'مرورگر نمی‌تواند کیفیت بالاتر را پخش کند.',
    playerError9196Fix: 'بیننده مرورگر دیگری را امتحان کند.',
    playerError9195Meaning: `${iso('VPN')} روشن است، یا لینک با کس دیگری به اشتراک گذاشته شده است.`,
    playerError9195Fix: `بیننده ${iso('VPN')} را خاموش کند و لینک را به اشتراک نگذارد.`,
    playerError9150Meaning: 'دستگاه دیگری از این حساب استفاده می‌کند.',
    playerError9150Fix: 'بیننده نشست دیگر را ببندد.',
    playerError9104Meaning: 'فایل هنوز در حال پردازش است.',
    playerError9104Fix: 'صبر کنید تا تبدیل فایل تمام شود.',
    playerError9103Meaning: 'پردازش فایل ناموفق بود.',
    playerError9103Fix: 'تبدیل فایل را دوباره اجرا کنید.',
    playerError9102Meaning: 'حساب تعلیق شده است و باید شارژ شود.',
    playerError9102Fix: 'صاحب حساب، حساب را شارژ کند.',
    playerError9101Meaning: 'تبدیل فایل ناموفق بود.',
    playerError9101Fix: 'تبدیل را دوباره اجرا کنید؛ اگر باز هم ناموفق بود، فایل را دوباره بارگذاری کنید.',
    playerError2001Meaning: 'یک افزونه‌ی ناسازگار در مرورگر فعال است.',
    playerError2001Fix: 'بیننده افزونه‌های مرورگر را غیرفعال کند.',
    playerError1466Meaning: 'بزرگ‌نمایی صفحه روی ۱۰۰٪ نیست.',
    playerError1466Fix: `بیننده بزرگ‌نمایی را به ۱۰۰٪ برگرداند (${iso('Ctrl+0')}).`,
    playerError1457Meaning: 'لینک معتبر نیست.',
    playerError1457Fix: 'بیننده لینک تازه بگیرد.',
    playerError1014Meaning: 'اتصال قطع شد.',
    playerError1014Fix: 'بیننده اتصال اینترنتش را بررسی کند.',
    playerError8001Meaning: 'مشکلی در پخش، شبکه یا مرورگر.',
    playerError8001Fix: 'بیننده مرورگر یا شبکه‌ی دیگری را امتحان کند.',
    playerError7443Meaning: `یک افزونه‌ی دانلود (مثلاً ${iso('IDM')}) یا تغییردهنده‌ی پوسته فعال است.`,
    playerError7443Fix: 'بیننده آن را غیرفعال کند.',
  },
);
